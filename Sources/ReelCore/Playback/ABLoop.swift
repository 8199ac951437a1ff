/// mpv's A-B loop: the `l` key sets point A at the position, then point B, then clears
/// both; once both are set, playback that reaches B goes back to A, forever or (mpv's
/// `--ab-loop-count`) a number of times.
public struct ABLoop: Sendable, Equatable {
    /// Where the loop starts, seconds; nil until set.
    public private(set) var start: Double?
    /// Where the loop ends, seconds; nil until set.
    public private(set) var end: Double?
    /// How many more times reaching B goes back to A; nil for ever. At 0 the points stay
    /// set and are passed, as mpv's count does.
    public private(set) var remainingLoops: Int?

    /// No loop; one set later with the `l` key is taken `times` times (nil: for ever).
    public init(times: Int? = nil) {
        remainingLoops = times.map { max($0, 0) }
    }

    /// A loop between two points, in either order, taken `times` times (nil: for ever);
    /// equal points make no loop.
    public init(from a: Double, to b: Double, times: Int? = nil) {
        self.init(times: times)
        guard a != b, a.isFinite, b.isFinite else { return }
        start = min(a, b)
        end = max(a, b)
    }

    /// Whether both points are set.
    public var isActive: Bool { start != nil && end != nil }

    /// What `l` does at `position`: sets A, then B, then clears both. B before A swaps them,
    /// and B at A is not taken (mpv would loop over nothing).
    public mutating func toggle(at position: Double) {
        guard position.isFinite else { return }
        switch (start, end) {
        case (nil, _):
            start = position
        case (let a?, nil):
            guard position != a else { return }
            self = ABLoop(from: a, to: position, times: remainingLoops)
        case (_?, _?):
            (start, end) = (nil, nil)
        }
    }

    /// Where to go back to when playback has reached `position`: A once B is reached,
    /// nil inside the loop, without one, or once its count is spent.
    public func jumpTarget(at position: Double) -> Double? {
        guard let start, let end, position >= end, remainingLoops != 0 else { return nil }
        return start
    }

    /// ``jumpTarget(at:)``, counting the jump it returns against the loop's count.
    public mutating func takeJump(at position: Double) -> Double? {
        guard let target = jumpTarget(at: position) else { return nil }
        remainingLoops = remainingLoops.map { $0 - 1 }
        return target
    }

    /// How the on-screen display says it.
    public var description: String {
        switch (start, end) {
        case (nil, _): "A-B loop cleared"
        case (let a?, nil): "A-B loop: A \(Self.clock(a))"
        case (let a?, let b?): "A-B loop: \(Self.clock(a)) – \(Self.clock(b))"
        }
    }

    private static func clock(_ seconds: Double) -> String {
        let tenths = Int((max(seconds, 0) * 10).rounded())
        let (minutes, rest) = (tenths / 600, tenths % 600)
        let secondsText = String(rest / 10)
        return "\(minutes):\(secondsText.count < 2 ? "0" : "")\(secondsText).\(rest % 10)"
    }
}
