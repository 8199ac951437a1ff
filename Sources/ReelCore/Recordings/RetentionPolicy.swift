import Foundation

/// How long a camera's recordings are kept (`--retention 7d`) and how much disk they may
/// take (`--retention-size 20G`): past either, the oldest segments go first, and the one
/// being written never goes.
public struct RetentionPolicy: Sendable, Hashable {
    /// Segments whose last picture is older than this many seconds are deleted.
    public var maximumAge: Double?
    /// The most bytes a camera's segments may take together.
    public var maximumBytes: Int64?

    /// A policy; nil for either keeps that limit off.
    public init(maximumAge: Double? = nil, maximumBytes: Int64? = nil) {
        self.maximumAge = maximumAge
        self.maximumBytes = maximumBytes
    }

    /// A segment as retention sees it.
    public struct Segment: Sendable, Hashable {
        /// Its file name.
        public var file: String
        /// When its first picture was received.
        public var first: Date
        /// When its last picture was received.
        public var last: Date
        /// Its size on disk.
        public var bytes: Int64
        /// Whether it is still being written (never deleted).
        public var isBeingWritten: Bool

        /// A segment.
        public init(file: String, first: Date, last: Date, bytes: Int64, isBeingWritten: Bool = false) {
            self.file = file
            self.first = first
            self.last = last
            self.bytes = bytes
            self.isBeingWritten = isBeingWritten
        }
    }

    /// The segments to delete at `now`, oldest first: every finished one whose last picture
    /// is older than ``maximumAge``, then the oldest finished ones until the rest fit in
    /// ``maximumBytes`` (the one being written counts, and stays).
    public func segmentsToDelete(_ segments: [Segment], now: Date) -> [Segment] {
        let oldestFirst = segments.sorted { ($0.first, $0.file) < ($1.first, $1.file) }
        var kept = Int64(0)
        for segment in oldestFirst { kept += segment.bytes }
        var deleted: [Segment] = []
        for segment in oldestFirst where !segment.isBeingWritten {
            let tooOld = maximumAge.map { now.timeIntervalSince(segment.last) > $0 } ?? false
            let tooMuch = maximumBytes.map { kept > $0 } ?? false
            guard tooOld || tooMuch else { continue }
            deleted.append(segment)
            kept -= segment.bytes
        }
        return deleted
    }

    /// Reads a duration: a number with `s`, `m`, `h`, `d` or `w` (`7d`, `36h`, `1.5h`);
    /// a bare number is seconds. Nil for anything else or for a duration of zero.
    public static func duration(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        guard case let (number, scale)? = split(text.lowercased(), units: units), let value = Double(number), value.isFinite, value > 0 else { return nil }
        return value * scale
    }

    /// Reads a size in bytes: a number with `K`, `M`, `G` or `T` (powers of 1024, as `du -h`
    /// prints them; `20G`, `1.5T`); a bare number is bytes. Nil for anything else or zero.
    public static func size(_ text: String) -> Int64? {
        let units: [Character: Double] = ["k": 1024, "m": 1_048_576, "g": 1_073_741_824, "t": 1_099_511_627_776]
        var text = text.lowercased()
        if text.hasSuffix("ib") { text.removeLast(2) } else if text.hasSuffix("b") && text.count > 1 && text.dropLast().last?.isLetter == true { text.removeLast() }
        guard case let (number, scale)? = split(text, units: units), let value = Double(number), value.isFinite, value > 0,
              value * scale < 9e18, (value * scale).rounded() >= 1 else { return nil }
        return Int64((value * scale).rounded())
    }

    /// The number and its unit's scale; nil for an unknown unit.
    private static func split(_ text: String, units: [Character: Double]) -> (number: Substring, scale: Double)? {
        guard let last = text.last, last.isLetter else { return (Substring(text), 1) }
        return units[last].map { (text.dropLast(), $0) }
    }
}
