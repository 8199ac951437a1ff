import Foundation

/// Wall-clock times as recordings name and index them: UTC, ISO 8601.
public enum RecordingClock {
    /// A segment's file name for a segment that starts at `start`:
    /// `2026-11-28T10-15-00Z.mp4` (colons, which some file systems refuse, as dashes).
    public static func segmentName(start: Date, extension fileExtension: String = "mp4") -> String {
        let seconds = Int64(start.timeIntervalSince1970.rounded(.down))
        return compact(seconds).replacingOccurrences(of: ":", with: "-") + "Z." + fileExtension
    }

    /// When the segment named `name` (as ``segmentName(start:extension:)`` writes it) starts,
    /// or nil for another name.
    public static func start(ofSegment name: String) -> Date? {
        let stem = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
        // YYYY-MM-DDTHH-MM-SSZ
        guard stem.count == 20, stem.hasSuffix("Z"), stem.dropFirst(10).first == "T" else { return nil }
        let date = stem.prefix(10), time = stem.dropFirst(11).dropLast()
        let timeParts = time.split(separator: "-", omittingEmptySubsequences: false)
        guard timeParts.count == 3 else { return nil }
        return parse("\(date)T\(timeParts.joined(separator: ":"))Z")
    }

    /// `date` as `2026-11-28T10:15:00.250Z` (milliseconds).
    public static func text(_ date: Date) -> String {
        // The nearest millisecond: a time read from `.311` is 0.3109999… s in binary, and
        // rounding down wrote it back as `.310` (libFuzzer found it).
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let fraction = milliseconds - seconds * 1000
        let digits = String(fraction)
        return compact(seconds) + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// Reads an ISO 8601 time: `2026-11-28T10:15:00Z`, with a fraction of a second, or with
    /// an offset (`+01:00`) instead of `Z`, in the years 1900 to 9999. A time without a zone
    /// is refused: a recording's times are UTC and a local reading would be off by the zone.
    public static func parse(_ text: String) -> Date? {
        let pattern = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/
        guard let match = text.wholeMatch(of: pattern),
              let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
              let hour = Int(match.4), let minute = Int(match.5), let second = Int(match.6),
              (1900...9999).contains(year), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let base = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)),
              calendar.component(.day, from: base) == day else { return nil }
        let fraction = match.7.flatMap { Double("0" + $0) } ?? 0
        var offset = 0
        if match.8 != "Z" {
            let zone = match.8.filter(\.isNumber)
            let hours = Int(zone.prefix(2)) ?? 0, minutes = Int(zone.suffix(2)) ?? 0
            guard hours < 24, minutes < 60 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (match.8.first == "-" ? -1 : 1)
        }
        return base.addingTimeInterval(fraction - Double(offset))
    }

    /// `2026-11-28T10:15:00` for whole seconds since 1970, UTC.
    private static func compact(_ seconds: Int64) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
        func two(_ value: Int?) -> String { let text = String(value ?? 0); return text.count < 2 ? "0" + text : text }
        let year = String(parts.year ?? 0)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + two(parts.month) + "-" + two(parts.day)
            + "T" + two(parts.hour) + ":" + two(parts.minute) + ":" + two(parts.second)
    }
}
