import Foundation

/// Glass-to-glass latencies, one per picture read: the ages of the ``LatencyTimecode``s of
/// the pictures shown (or received), how many pictures had none that could be read, and
/// how many never came (the capture times read span more camera intervals than pictures
/// came).
public struct LatencyMeter: Sendable {
    private var ages = RecentLog<Double>(capacity: capacity)
    /// Seconds from each code read to the next, where time went forward.
    private var gaps = RecentLog<Double>(capacity: capacity)
    private var previousCode: UInt64?
    /// The first code read, and the latest capture time read since.
    private var firstCode: UInt64?
    private var newestCode: UInt64?
    /// Codes read later than every code before them, the first included.
    private var advancing = 0
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
        if let newestCode {
            if LatencyTimecode.age(of: newestCode, at: code) > 0 { (self.newestCode, advancing) = (code, advancing + 1) }
        } else {
            (firstCode, newestCode, advancing) = (code, code, 1)
        }
        add(age: LatencyTimecode.age(of: code, at: clock))
    }

    /// One picture's latency in seconds.
    public mutating func add(age: Double) {
        ages.append(age)
    }

    /// Pictures that never came between those read: the capture times from the first
    /// code read to the latest span so many camera intervals, so many pictures were
    /// captured; less those that came, readable or not. A picture captured late and the
    /// next one on time are no loss (counted gap by gap, the long gap stood for a missing
    /// picture: a loaded run's camera gave 90 pictures of 90 and "1 dropped"); the latest
    /// may be up to 3/4 of an interval late. The interval is the mean of the gaps within 2 %
    /// of the median gap: finer than the microseconds of one gap, so that they do not add
    /// up over an hour's span, and without the gaps a late capture lengthened or shortened
    /// (with them, a late picture next to a missing one biased it: a hunt run counted 5 of
    /// 6 pictures left out).
    private var dropped: Int {
        let sorted = gaps.entries.sorted()
        guard !sorted.isEmpty, let firstCode, let newestCode else { return 0 }
        let median = sorted[(sorted.count - 1) / 2]
        let typical = sorted.filter { abs($0 - median) <= median / 50 }
        let interval = typical.reduce(0, +) / Double(typical.count)
        let captured = Int((LatencyTimecode.age(of: firstCode, at: newestCode) / interval + 0.25).rounded(.down)) + 1
        return max(0, captured - advancing - unreadableBetween)
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
