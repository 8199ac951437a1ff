import Foundation
import Testing
import ReelCore

@Suite struct RecordingClockTests {
    @Test func segmentNamesAreUTCStartsThatReadBack() throws {
        let start = try #require(RecordingClock.parse("2026-11-28T10:15:00.750Z"))
        #expect(RecordingClock.segmentName(start: start) == "2026-11-28T10-15-00Z.mp4")
        #expect(RecordingClock.segmentName(start: start, extension: "mkv") == "2026-11-28T10-15-00Z.mkv")
        #expect(RecordingClock.start(ofSegment: "2026-11-28T10-15-00Z.mp4") == RecordingClock.parse("2026-11-28T10:15:00Z"))
        for name in ["cam-000.mp4", "2026-11-28T10-15-00.mp4", "2026-13-28T10-15-00Z.mp4", "2026-02-30T10-15-00Z.mp4", "index.jsonl"] {
            #expect(RecordingClock.start(ofSegment: name) == nil, "\(name)")
        }
    }

    @Test func timesReadWithZonesAndFractions() throws {
        let utc = try #require(RecordingClock.parse("2026-11-28T10:15:00Z"))
        #expect(utc.timeIntervalSince1970 == 1_795_860_900)
        #expect(RecordingClock.parse("2026-11-28T11:15:00+01:00") == utc)
        #expect(RecordingClock.parse("2026-11-28T05:45:00-0430") == utc)
        #expect(RecordingClock.parse("2026-11-28 10:15:00.5Z") == utc.addingTimeInterval(0.5))
        #expect(RecordingClock.text(utc.addingTimeInterval(0.25)) == "2026-11-28T10:15:00.250Z")
        #expect(RecordingClock.text(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
        let read = try #require(RecordingClock.parse("2026-11-28T11:15:00.311+01:00"))
        #expect(RecordingClock.text(read) == "2026-11-28T10:15:00.311Z", "a millisecond read is the one written back")
        for text in ["2026-11-28T10:15:00", "2026-11-28", "2026-11-28T25:00:00Z", "2026-11-28T10:15:00+25:00", "0000-01-01T00:00:00Z", "yesterday", ""] {
            #expect(RecordingClock.parse(text) == nil, "\(text)")
        }
    }
}
