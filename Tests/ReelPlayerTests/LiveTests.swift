@testable import ReelPlayer
import ReelCore
import Testing

/// A live input's latency kept on target, on a manual clock.
@Suite struct LiveTests {
    private static func configuration(jumpAbove: Double = 8) -> Player.Configuration {
        var configuration = Player.Configuration()
        configuration.liveLatency = LiveLatency(target: 0.3, slack: 0.1, catchUpRate: 1.1, jumpAbove: jumpAbove)
        return configuration
    }

    /// Stopping a live player ends its live thread at once: the thread sleeps on a lock of
    /// its own that only the stop wakes (pictures shown no longer wake it), and the clock
    /// never moves here, so without that wake the stop would wait out its 10 s for it.
    @Test(.timeLimit(.minutes(1))) func stoppingALivePlayerWakesItsLiveThread() async throws {
        var configuration = Self.configuration()
        configuration.live = .on
        let harness = PlayerHarness(configuration: configuration) { _, _, clock, _ in ScriptedEngine(clock: clock, duration: 30, audio: false) }
        try await harness.player.open("rtsp://camera/stream")
        harness.player.play()
        #expect(harness.clock.waitForSleepers(1), "the live thread sleeps on the clock")
        let began = monotonicSeconds()
        harness.player.stop()
        #expect(monotonicSeconds() - began < 5, "the stop waited \(monotonicSeconds() - began) s for its threads")
    }

    /// A one-second stall of the network: the display buffers, the latency grows by the
    /// stall, the player plays 10 % faster until it is back on target, then at 1×.
    @Test func behindTargetItCatchesUpThenPlaysAtNormalSpeed() throws {
        let harness = try SessionHarness(configuration: Self.configuration(), duration: 30, audio: false, live: true) { engine in
            engine.arrival = { index, start in index >= 50 && index < 75 ? start + 3.0 : start + Double(index) / 25 }
        }
        harness.play()
        harness.run(for: 20)
        let adjustments = harness.events.all.compactMap { if case .liveAdjusted(let change) = $0 { change } else { nil } }
        guard case .catchingUp(_, let rate)? = adjustments.first else {
            Issue.record("no catch-up: \(adjustments)")
            return
        }
        #expect(rate == 1.1)
        #expect(adjustments.contains { if case .onTarget = $0 { true } else { false } }, "\(adjustments)")
        #expect(harness.control.read { $0.rate } == 1)
        let latency = harness.control.read { $0.statistics.liveLatency } ?? .nan
        #expect(latency <= 0.3 + 0.04 + 1e-9, "latency \(latency)")
        #expect(harness.engine.skips.isEmpty, "no jump for a second behind")
    }

    /// Far behind (a 3 s stall, jumps above 2 s): one jump to the target, the next
    /// picture shown at once, none before the point jumped to.
    @Test func farBehindItJumpsToTheTarget() throws {
        let harness = try SessionHarness(configuration: Self.configuration(jumpAbove: 2), duration: 30, audio: false, live: true) { engine in
            engine.arrival = { index, start in index >= 50 && index < 125 ? start + 5.0 : start + Double(index) / 25 }
        }
        harness.play()
        harness.run(for: 9)
        #expect(harness.engine.skips.count == 1)
        let target = try #require(harness.engine.skips.first)
        #expect(harness.events.all.contains { if case .liveAdjusted(.jumped) = $0 { true } else { false } })
        let jumpedAt = harness.video.shown.firstIndex { $0.pts >= target - 0.04 } ?? 0
        let shownAfter = harness.video.shown[jumpedAt...]
        #expect(shownAfter.allSatisfy { $0.pts >= target - 0.04 }, "nothing before the jump's target \(target) after it")
        let latency = harness.control.read { $0.statistics.liveLatency } ?? .nan
        #expect(latency < 0.3 + 0.1 + 0.04, "latency \(latency)")
    }

    /// Far behind with sound (both stalled 3 s), then 0.5 s more at 8 s: after the jump and
    /// through the catch-up at 1.1× that follows, each second's flash (the picture at a
    /// whole second) is shown within 10 ms of its beep (the sound of that second's first
    /// 40 ms) as the sound card plays it, loudness normalized as live sound is by default.
    @Test func afterAJumpAndACatchUpEachPictureMeetsItsSound() throws {
        let harness = try SessionHarness(configuration: Self.configuration(jumpAbove: 2), duration: 30, audio: true, live: true) { engine in
            engine.arrival = { index, start in
                index >= 50 && index < 125 ? start + 5.0 : index >= 200 && index < 212 ? start + 8.5 : start + Double(index) / 25
            }
            engine.audioArrival = { time, start in time >= 2 && time < 5 ? start + 5.0 : time >= 8 && time < 8.5 ? start + 8.5 : start + time }
            engine.beeps = true
        }
        harness.play()
        harness.run(for: 16)
        let target = try #require(harness.engine.skips.first, "\(harness.events.all.filter { if case .time = $0 { false } else { true } })")
        let beeps = try #require(harness.audio).onsets()
        // Not the flash that ends the second stall: the first picture after a stall shows
        // at once, before the last sound from before the stall has played out.
        let flashes = harness.video.shown.filter { $0.pts > target + 0.5 && $0.pts != 8 && abs($0.pts - $0.pts.rounded()) < 1e-6 }
        let offsets = flashes.compactMap { flash in beeps.min { abs($0 - flash.at) < abs($1 - flash.at) }.map { flash.at - $0 } }
        let adjustments = harness.events.all.compactMap { if case .liveAdjusted(let change) = $0 { change } else { nil } }
        print("jump and catch-up with sound: \(adjustments.count) adjustments; flash minus beep \(offsets.map { Int(($0 * 1000).rounded()) }) ms")
        #expect(adjustments.contains { if case .catchingUp = $0 { true } else { false } }, "\(adjustments)")
        #expect(offsets.count >= 8 && offsets.allSatisfy { abs($0) <= 0.01 },
                "jumped to \(target); flash minus beep: \(offsets.map { Int(($0 * 1000).rounded()) }) ms")
    }
}
