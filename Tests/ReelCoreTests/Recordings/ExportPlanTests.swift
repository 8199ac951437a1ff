import Foundation
import Testing
import ReelCore

@Suite struct ExportPlanTests {
    /// Three 10-second segments with a keyframe every 2 s, the third after a 30 s outage.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let index: [RecordingIndexEntry] = [(0.0, "a"), (10.0, "b"), (50.0, "c")].map { offset, name in
        RecordingIndexEntry(file: name, first: start.addingTimeInterval(offset), last: start.addingTimeInterval(offset + 9.96),
                            keyframes: [0, 2, 4, 6, 8])
    }

    /// Dates hold seconds since 2001 in a double: a microsecond is as close as they come back.
    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 }
    static func close(_ a: Date, _ b: Date) -> Bool { close(a.timeIntervalSince1970, b.timeIntervalSince1970) }

    @Test func aSpanAcrossABoundaryStartsAtTheKeyframeBefore() throws {
        let plan = try ExportPlan.plan(Self.index.reversed(), from: Self.start.addingTimeInterval(5.5), to: Self.start.addingTimeInterval(13))
        #expect(plan.pieces.map(\.file) == ["a", "b"])
        #expect(plan.pieces.count == 2 && Self.close(plan.pieces[0].start, 4) && Self.close(plan.pieces[0].end, 9.96)
                    && Self.close(plan.pieces[1].start, 0) && Self.close(plan.pieces[1].end, 3), "\(plan.pieces)")
        #expect(Self.close(plan.firstPicture, Self.start.addingTimeInterval(4)))
        #expect(Self.close(plan.leadIn, 1.5))
        #expect(plan.gaps.isEmpty)
    }

    @Test func gapsAreReportedAndAKeyframeAtFromIsTaken() throws {
        let plan = try ExportPlan.plan(Self.index, from: Self.start.addingTimeInterval(16), to: Self.start.addingTimeInterval(70))
        #expect(plan.pieces.map(\.file) == ["b", "c"])
        #expect(plan.pieces.first.map { Self.close($0.start, 6) } == true && Self.close(plan.leadIn, 0))
        let expected = [(19.96, 50.0), (59.96, 70.0)]
        #expect(plan.gaps.count == 2 && zip(plan.gaps, expected).allSatisfy { gap, times in
            Self.close(gap.from, Self.start.addingTimeInterval(times.0)) && Self.close(gap.to, Self.start.addingTimeInterval(times.1))
        }, "\(plan.gaps)")
    }

    @Test func emptyAndUnrecordedSpansAreErrors() {
        #expect(throws: ExportPlanError.emptySpan) { try ExportPlan.plan(Self.index, from: Self.start, to: Self.start) }
        #expect(throws: ExportPlanError.nothingRecorded) {
            try ExportPlan.plan(Self.index, from: Self.start.addingTimeInterval(25), to: Self.start.addingTimeInterval(45))
        }
        #expect(throws: ExportPlanError.nothingRecorded) { try ExportPlan.plan([], from: Self.start, to: Self.start.addingTimeInterval(1)) }
    }
}
