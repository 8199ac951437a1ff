import Testing
@testable import ReelCore

@Suite struct VAPFrameTimingTests {
    @Test func onTimeFramesLastOneInterval() {
        var timing = VAPFrameTiming(framesPerSecond: 25)
        #expect(timing.duration(ofFrameShownAt: 10) == 0.04)
        #expect(abs(timing.duration(ofFrameShownAt: 10.04) - 0.04) < 1e-9)
        #expect(abs(timing.duration(ofFrameShownAt: 10.08) - 0.04) < 1e-9)
    }

    @Test func aLateFrameIsShortenedByItsLateness() {
        var timing = VAPFrameTiming(framesPerSecond: 25)
        _ = timing.duration(ofFrameShownAt: 0)
        // Shown 15 ms late: up for 25 ms, so that the next one is due on the original grid.
        #expect(abs(timing.duration(ofFrameShownAt: 0.055) - 0.025) < 1e-9)
        #expect(abs(timing.duration(ofFrameShownAt: 0.080) - 0.040) < 1e-9)
        // More than a frame late: shown for no time, the lateness beyond is not carried.
        #expect(timing.duration(ofFrameShownAt: 0.200) == 0)
    }

    @Test func restartForgetsThePreviousFrame() {
        var timing = VAPFrameTiming(framesPerSecond: 20)
        _ = timing.duration(ofFrameShownAt: 0)
        timing.restart()
        #expect(timing.duration(ofFrameShownAt: 5) == 0.05)
    }
}
