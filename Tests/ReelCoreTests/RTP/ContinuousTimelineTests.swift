import Testing
@testable import ReelCore

struct ContinuousTimelineTests {
    /// Times for timestamps in decoding order.
    func times(_ timestamps: [Int64], restartAt: Int? = nil, maxGap: Double = 10) -> [Int64] {
        var timeline = ContinuousTimeline(clockRate: 90000, maxGap: maxGap)
        return timestamps.enumerated().map { timeline.time(for: $1, restarted: $0 == restartAt) }
    }

    @Test func aSteadyStreamStartsAtZeroAndKeepsItsSpacing() {
        #expect(times([5000, 8600, 12200, 15800]) == [0, 3600, 7200, 10800])
    }

    @Test func aGapWithinTheBoundIsKept() {
        // Five seconds without pictures (an outage) stay five seconds.
        #expect(times([0, 3600, 3600 + 450_000]) == [0, 3600, 453_600])
    }

    @Test func aJumpBackGoesOnOnePictureLater() {
        #expect(times([900_000, 903_600, 907_200, 3600, 7200]) == [0, 3600, 7200, 10800, 14400])
    }

    @Test func aJumpForwardBeyondTheBoundGoesOnOnePictureLater() {
        #expect(times([0, 3600, 3600 + 90000 * 3600], maxGap: 10) == [0, 3600, 7200])
    }

    @Test func aRestartGoesOnEvenWhenItsTimestampsLookPlausible() {
        #expect(times([0, 3600, 7200, 10800], restartAt: 3) == [0, 3600, 7200, 10800])
        #expect(times([0, 3600, 7200, 9000], restartAt: 3) == [0, 3600, 7200, 10800])
    }

    @Test func reorderedPicturesAreNotBreaksAndLeaveRoomAfterOne() {
        // I P B B (decoding order), 3600 apart, then the sender jumps back: the next picture
        // goes on far enough after the latest time for its own B-frames.
        let mapped = times([0, 10800, 3600, 7200, 14400, -500_000, -507_200])
        #expect(Array(mapped.prefix(5)) == [0, 10800, 3600, 7200, 14400])
        #expect(mapped[5] == 14400 + 5 * 3600 && mapped[6] == mapped[5] - 7200)
        var timeline = ContinuousTimeline(clockRate: 90000)
        for timestamp in [Int64(0), 10800, 3600, 7200, 14400, -500_000] { _ = timeline.time(for: timestamp) }
        #expect(timeline.breaks == 1)
    }

    @Test func anyGapBoundIsTaken() {
        for gap in [-1, 0, .infinity, .nan] as [Double] {
            var timeline = ContinuousTimeline(clockRate: 90000, maxGap: gap)
            #expect([0, 3600, 1 << 40].map { timeline.time(for: $0) }.allSatisfy { $0 >= 0 })
        }
    }
}

@Suite struct FrameIntervalEstimateTests {
    /// 30 fps at 90 kHz with two B-frames between references, in decoding order; a gap of
    /// two seconds; a restart.
    @Test func theShortestForwardStepIsTheFrameInterval() {
        var estimate = FrameIntervalEstimate()
        let decodingOrder: [Int64] = [0, 9000, 3000, 6000, 18000, 12000, 15000]
        let intervals = decodingOrder.map { estimate.next($0, clockRate: 90000) }
        #expect(intervals == [0, 9000, 9000, 3000, 3000, 3000, 3000])
        #expect(estimate.next(18000 + 180_000, clockRate: 90000) == 3000)
        #expect(estimate.next(500, restarted: true, clockRate: 90000) == 0)
        #expect(estimate.next(500 + 6000, clockRate: 90000) == 6000)
    }
}
