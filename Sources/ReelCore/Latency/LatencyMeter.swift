import Foundation

/// Glass-to-glass latencies, one per picture read: the ages of the ``LatencyTimecode``s of
/// the pictures shown (or received), how many pictures had none that could be read, and
/// how many never came (gaps between the capture times read).
public struct LatencyMeter: Sendable {
    private var ages = RecentLog<Double>(capacity: capacity)
    /// Seconds from each code read to the next, where time went forward.
    private var gaps = RecentLog<Double>(capacity: capacity)
    private var previousCode: UInt64?
    /// Unreadable pictures after the first code read: they came, in the gaps.
    private var unreadableBetween = 0
    /// Pictures with no readable code.
    public private(set) var unreadable = 0
    /// The most ages kept (an hour at 60 fps); later ones replace the oldest.
    public static let capacity = 216_000
    /// Seconds after the first code read during which pictures are not counted.
    public let warmup: Double
    private var firstReadAt: UInt64?

    /// - Parameter warmup: seconds from the first code read during which pictures are
    ///   left out (a player's opening backlog, a pipe's start).
    public init(warmup: Double = 0) {
        self.warmup = warmup
    }

    /// Reads the picture's code: its age on the local clock, or one more unreadable picture.
    public mutating func add(code: UInt64?, at clock: UInt64 = LatencyTimecode.now()) {
        if warmup > 0 {
            let first = firstReadAt ?? clock
            firstReadAt = first
            if LatencyTimecode.age(of: first, at: clock) < warmup { return }
        }
        guard let code else {
            unreadable += 1
            if previousCode != nil { unreadableBetween += 1 }
            return
        }
        if let previousCode {
            let gap = LatencyTimecode.age(of: previousCode, at: code)
            if gap > 0 { gaps.append(gap) }
        }
        previousCode = code
        add(age: LatencyTimecode.age(of: code, at: clock))
    }

    /// One picture's latency in seconds.
    public mutating func add(age: Double) {
        ages.append(age)
    }

    /// Pictures that never came between those read: a gap of n typical intervals (the
    /// median gap, the camera's frame interval when most pictures arrive) between the
    /// capture times of consecutive pictures read stands for n − 1 pictures, less those
    /// that came unreadable.
    private var dropped: Int {
        let sorted = gaps.entries.sorted()
        guard !sorted.isEmpty else { return 0 }
        let interval = sorted[(sorted.count - 1) / 2]
        let missing = sorted.reduce(0) { $0 + max(0, Int(($1 / interval).rounded()) - 1) }
        return max(0, missing - unreadableBetween)
    }

    /// What was measured so far.
    public var summary: LatencySummary {
        let sorted = ages.entries.sorted()
        func percentile(_ fraction: Double) -> Double? {
            // Nearest rank: the smallest age at or above `fraction` of the pictures.
            guard !sorted.isEmpty else { return nil }
            let rank = Int((fraction * Double(sorted.count)).rounded(.up))
            return sorted[min(max(rank, 1), sorted.count) - 1]
        }
        return LatencySummary(pictures: sorted.count, unreadable: unreadable, dropped: dropped, p50: percentile(0.5), p95: percentile(0.95),
                              max: sorted.last, min: sorted.first)
    }
}

/// The latencies of a run, in seconds (nil before any picture was read).
public struct LatencySummary: Sendable, Equatable, Codable {
    /// Pictures whose code was read.
    public var pictures: Int
    /// Pictures with no readable code.
    public var unreadable: Int
    /// Pictures that never came, by the gaps between the capture times of those read.
    public var dropped: Int
    /// The median latency.
    public var p50: Double?
    /// The latency 95 % of the pictures are within.
    public var p95: Double?
    /// The highest latency.
    public var max: Double?
    /// The lowest latency.
    public var min: Double?

    /// A summary of figures measured elsewhere.
    public init(pictures: Int, unreadable: Int, dropped: Int = 0, p50: Double?, p95: Double?, max: Double?, min: Double?) {
        self.pictures = pictures
        self.unreadable = unreadable
        self.dropped = dropped
        self.p50 = p50
        self.p95 = p95
        self.max = max
        self.min = min
    }

    /// `p50 35.2 ms  p95 48.0 ms  max 61.3 ms  (300 pictures, 0 unreadable, 0 dropped)`.
    public var line: String {
        func milliseconds(_ value: Double?) -> String { value.map { String(format: "%.1f ms", $0 * 1000) } ?? "-" }
        return "p50 \(milliseconds(p50))  p95 \(milliseconds(p95))  max \(milliseconds(max))  (\(pictures) pictures, \(unreadable) unreadable, \(dropped) dropped)"
    }
}
