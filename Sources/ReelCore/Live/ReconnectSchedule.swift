/// When a live input that was lost is tried again: 0.25 s after the loss, then after twice
/// the wait each time up to 4 s, as long as an attempt would start within the reconnect
/// time (attempts themselves take time: a server that does not answer holds one for the
/// open timeout).
public struct ReconnectSchedule: Sendable, Equatable {
    /// Seconds from the loss after which no attempt starts; 0 never reconnects.
    public let limit: Double
    /// Attempts started so far.
    public private(set) var attempts = 0
    static let firstDelay = 0.25
    static let longestDelay = 4.0

    /// A schedule that gives up `limit` seconds after the loss.
    public init(limit: Double) {
        self.limit = limit
    }

    /// The wait before attempt `attempt` (from 1).
    static func delay(before attempt: Int) -> Double {
        min(firstDelay * Double(1 << min(max(attempt - 1, 0), 8)), longestDelay)
    }

    /// The wait before the next attempt, `elapsed` seconds after the loss; nil (and no
    /// attempt counted) when it would start after the limit.
    public mutating func nextWait(elapsed: Double) -> Double? {
        let wait = Self.delay(before: attempts + 1)
        guard limit > 0, elapsed + wait <= limit else { return nil }
        attempts += 1
        return wait
    }
}
