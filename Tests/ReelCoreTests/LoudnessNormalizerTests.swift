import Foundation
import ReelCore
import Testing

@Suite struct LoudnessNormalizerTests {
    /// Sound at `loudness` LUFS for `seconds`, measured every 100 ms; the gain after.
    private func play(_ normalizer: inout LoudnessNormalizer, at loudness: Double, for seconds: Double) -> [Double] {
        (0..<Int(seconds * 10)).map { _ in normalizer.measured(momentary: loudness, shortTerm: loudness, seconds: 0.1) }
    }

    @Test func quietSoundIsLiftedToTheTargetSlowlyAndLoudSoundLoweredFast() {
        var normalizer = LoudnessNormalizer()
        let lifted = play(&normalizer, at: -30, for: 8)
        #expect(abs(lifted.last! - 14) < 0.1, "−30 LUFS needs +14 dB: \(lifted.last!)")
        // Rising takes seconds: after 1 s it is not most of the way.
        #expect(lifted[9] < 14 * 0.6 && lifted[9] > 14 * 0.3, "\(lifted[9]) dB after 1 s")
        // Then a loud passage (−10 LUFS): the gain is down to −6 dB within half a second.
        let lowered = play(&normalizer, at: -10, for: 1)
        #expect(lowered[4] < -5, "\(lowered[4]) dB after 0.5 s")
        #expect(abs(lowered.last! + 6) < 0.1)
    }

    @Test func aLoudMomentWinsOverAQuieterShortTermMeasureBeyondTheHeadroom() {
        var normalizer = LoudnessNormalizer()
        for _ in 0..<100 { normalizer.measured(momentary: -10, shortTerm: -25, seconds: 0.1) }
        #expect(abs(normalizer.gain + 3) < 0.01, "the momentary −10 LUFS, 3 dB of headroom, sets −3 dB: \(normalizer.gain)")
        // Speech a few dB louder over 400 ms than over 3 s: the short-term measure rules.
        for _ in 0..<100 { normalizer.measured(momentary: -20, shortTerm: -22, seconds: 0.1) }
        #expect(abs(normalizer.gain - 6) < 0.05, "\(normalizer.gain)")
    }

    @Test func silenceHoldsTheGainAndLimitsBoundIt() {
        var normalizer = LoudnessNormalizer()
        _ = play(&normalizer, at: -26, for: 10)
        let held = normalizer.gain
        _ = play(&normalizer, at: -80, for: 10)
        #expect(normalizer.gain == held, "silence changes nothing")
        normalizer.measured(momentary: -.infinity, shortTerm: .nan, seconds: 0.1)
        #expect(normalizer.gain == held, "no measure yet")
        _ = play(&normalizer, at: -45, for: 20)
        #expect(abs(normalizer.gain - 20) < 0.01, "at most +20 dB: \(normalizer.gain)")
        _ = play(&normalizer, at: 20, for: 5)
        #expect(abs(normalizer.gain + 30) < 0.01, "at least −30 dB: \(normalizer.gain)")
    }
}
