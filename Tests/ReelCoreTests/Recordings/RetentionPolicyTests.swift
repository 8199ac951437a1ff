import Foundation
import Testing
import ReelCore

@Suite struct RetentionPolicyTests {
    /// Ten-second segments of 1 MB, the newest still being written.
    static func segments(count: Int, start: Date) -> [RetentionPolicy.Segment] {
        (0..<count).map { index in
            RetentionPolicy.Segment(file: "s\(index)", first: start.addingTimeInterval(Double(index) * 10),
                                    last: start.addingTimeInterval(Double(index) * 10 + 9.9), bytes: 1_000_000,
                                    isBeingWritten: index == count - 1)
        }
    }

    @Test func theOldestGoFirstUntilTheRestFit() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let segments = Self.segments(count: 10, start: start).shuffled()
        let bySize = RetentionPolicy(maximumBytes: 4_500_000).segmentsToDelete(segments, now: start.addingTimeInterval(100))
        #expect(bySize.map(\.file) == ["s0", "s1", "s2", "s3", "s4", "s5"])
        let byAge = RetentionPolicy(maximumAge: 30).segmentsToDelete(segments, now: start.addingTimeInterval(100))
        #expect(byAge.map(\.file) == ["s0", "s1", "s2", "s3", "s4", "s5", "s6"], "last pictures before 70 s (s6's at 69.9)")
        let both = RetentionPolicy(maximumAge: 75, maximumBytes: 8_000_000).segmentsToDelete(segments, now: start.addingTimeInterval(100))
        #expect(both.map(\.file) == ["s0", "s1"])
        #expect(RetentionPolicy().segmentsToDelete(segments, now: start.addingTimeInterval(1e9)).isEmpty)
    }

    @Test func theSegmentBeingWrittenIsNeverDeleted() {
        let start = Date(timeIntervalSince1970: 0)
        let one = Self.segments(count: 1, start: start)
        #expect(RetentionPolicy(maximumAge: 1, maximumBytes: 1).segmentsToDelete(one, now: start.addingTimeInterval(1000)).isEmpty)
        let three = Self.segments(count: 3, start: start)
        #expect(RetentionPolicy(maximumBytes: 1).segmentsToDelete(three, now: start).map(\.file) == ["s0", "s1"])
    }

    @Test func durationsAndSizesAsUsersWriteThem() {
        #expect(RetentionPolicy.duration("7d") == 604_800)
        #expect(RetentionPolicy.duration("1.5h") == 5400)
        #expect(RetentionPolicy.duration("90") == 90)
        #expect(RetentionPolicy.duration("2W") == 1_209_600)
        for text in ["", "d", "0d", "-1h", "7x", "nan", "inf"] { #expect(RetentionPolicy.duration(text) == nil, "\(text)") }
        #expect(RetentionPolicy.size("20G") == 21_474_836_480)
        #expect(RetentionPolicy.size("512MiB") == 536_870_912)
        #expect(RetentionPolicy.size("1.5k") == 1536)
        #expect(RetentionPolicy.size("1000") == 1000)
        #expect(RetentionPolicy.size("2GB") == 2_147_483_648)
        for text in ["", "G", "0", "-5M", "10X", "9999999T", "0.0001"] { #expect(RetentionPolicy.size(text) == nil, "\(text)") }
    }
}
