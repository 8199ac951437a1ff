import Foundation
import Testing
import ReelCore

@Suite struct RecordingIndexTests {
    @Test func entriesReadBackAsWrittenAndATornLastLineIsCounted() throws {
        let first = try #require(RecordingClock.parse("2026-11-28T10:15:00Z"))
        let entries = [
            RecordingIndexEntry(file: "2026-11-28T10-15-00Z.mp4", first: first, last: first.addingTimeInterval(9.96), keyframes: [0, 2, 4, 6, 8]),
            RecordingIndexEntry(file: "a \"quoted\" name.mp4", first: first.addingTimeInterval(10), last: first.addingTimeInterval(19.96), keyframes: [0, 2.5]),
        ]
        let text = entries.map(\.line).joined(separator: "\n") + "\n"
        #expect(entries[0].line == #"{"file":"2026-11-28T10-15-00Z.mp4","first":"2026-11-28T10:15:00.000Z","last":"2026-11-28T10:15:09.960Z","keyframes":[0.000,2.000,4.000,6.000,8.000]}"#)
        let read = RecordingIndex.entries(of: Data(text.utf8))
        #expect(read.entries == entries && read.unreadable == 0)
        // A crash in the middle of appending the third line.
        let torn = RecordingIndex.entries(of: Data((text + #"{"file":"2026-11-28T10-15-20Z.mp4","fi"#).utf8))
        #expect(torn.entries == entries && torn.unreadable == 1)
    }

    @Test func badLinesAreSkippedNotTrusted() {
        let lines = [
            #"{"file":"../../etc/passwd","first":"2026-11-28T10:15:00Z","last":"2026-11-28T10:15:09Z","keyframes":[0]}"#,
            #"{"file":"x.mp4","first":"2026-11-28T10:15:09Z","last":"2026-11-28T10:15:00Z","keyframes":[0]}"#,
            #"{"file":"x.mp4","first":"2026-11-28T10:15:00Z","last":"2026-11-28T10:15:09Z","keyframes":[4,2]}"#,
            #"{"file":"x.mp4","first":"2026-11-28T10:15:00","last":"2026-11-28T10:15:09Z","keyframes":[0]}"#,
            #"{"file":"x.mp4","first":"2026-11-28T10:15:00Z","last":"2026-11-28T10:15:09Z","keyframes":["0"]}"#,
            #"[1,2,3]"#,
            "",
            #"{"file":"ok.mp4","first":"2026-11-28T10:15:00Z","last":"2026-11-28T10:15:09Z","keyframes":[]}"#,
        ]
        let read = RecordingIndex.entries(of: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(read.entries.map(\.file) == ["ok.mp4"] && read.unreadable == 6)
    }
}
