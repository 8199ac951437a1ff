import Foundation

/// One recorded segment as a camera's index lists it (a JSON line each): its file, the
/// wall-clock times of its first and last picture, and its keyframes as seconds from the
/// first picture, which is where an export may start.
public struct RecordingIndexEntry: Sendable, Hashable, Codable {
    /// The segment's file name, in the index's directory.
    public var file: String
    /// When its first picture was received.
    public var first: Date
    /// When its last picture was received.
    public var last: Date
    /// Its keyframes, seconds after the first picture (the first is 0).
    public var keyframes: [Double]

    /// An entry.
    public init(file: String, first: Date, last: Date, keyframes: [Double]) {
        self.file = file
        self.first = first
        self.last = last
        self.keyframes = keyframes
    }

    /// The entry as its index line (no newline): times as ``RecordingClock/text(_:)`` writes them.
    public var line: String {
        let keyframes = self.keyframes.map { String(format: "%.3f", $0) }.joined(separator: ",")
        return "{\"file\":\(Self.quoted(file)),\"first\":\"\(RecordingClock.text(first))\",\"last\":\"\(RecordingClock.text(last))\",\"keyframes\":[\(keyframes)]}"
    }

    private static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}

/// A camera's index of segments (`index.jsonl`): one ``RecordingIndexEntry`` a line,
/// appended as each segment closes.
public enum RecordingIndex {
    /// Longer lines are not entries (a segment of 10 minutes at a keyframe a second is 6 kB).
    public static let maximumLineBytes = 1 << 20
    /// More entries than this are not read: at one a minute it is two years.
    public static let maximumEntries = 1_000_000

    /// The entries of an index's bytes, in the order written, and how many lines were not
    /// entries. A last line without its newline is what a crash mid-write leaves: it is
    /// counted as unreadable, and the entries before it are kept.
    public static func entries(of data: Data) -> (entries: [RecordingIndexEntry], unreadable: Int) {
        var entries: [RecordingIndexEntry] = [], unreadable = 0
        var lineStart = data.startIndex
        while lineStart < data.endIndex, entries.count < maximumEntries {
            let newline = data[lineStart...].firstIndex(of: UInt8(ascii: "\n"))
            let lineEnd = newline ?? data.endIndex
            defer { lineStart = newline.map { data.index(after: $0) } ?? data.endIndex }
            let line = data[lineStart..<lineEnd]
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { continue }
            guard newline != nil, line.count <= maximumLineBytes, let entry = entry(Data(line)) else {
                unreadable += 1
                continue
            }
            entries.append(entry)
        }
        return (entries, unreadable)
    }

    private static func entry(_ line: Data) -> RecordingIndexEntry? {
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              let file = object["file"] as? String, !file.isEmpty, !file.contains("/"),
              let firstText = object["first"] as? String, let first = RecordingClock.parse(firstText),
              let lastText = object["last"] as? String, let last = RecordingClock.parse(lastText), last >= first,
              let keyframeValues = object["keyframes"] as? [Any] else { return nil }
        var keyframes: [Double] = []
        for value in keyframeValues {
            guard let seconds = (value as? NSNumber)?.doubleValue else { return nil }
            guard seconds.isFinite, seconds >= 0, keyframes.last.map({ seconds >= $0 }) ?? true else { return nil }
            keyframes.append(seconds)
        }
        return RecordingIndexEntry(file: file, first: first, last: last, keyframes: keyframes)
    }
}
