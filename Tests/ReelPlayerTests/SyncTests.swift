@testable import ReelPlayer
import ReelCore
import Testing

/// When frames show, on a manual clock: exact times, drops, A/V sync under a drifting and
/// stalling sound card. Each test plays seconds of media in milliseconds.
@Suite struct SyncTests {
    @Test func withoutAudioEachFrameShowsExactlyOnItsTime() throws {
        let harness = try SessionHarness(duration: 1, audio: false)
        harness.run(for: 0.5)
        #expect(harness.shownTimes == [0], "paused on the first frame after opening")
        let playedAt = harness.now
        harness.play()
        harness.run(for: 2)
        let expected: [Double] = (0..<25).map { Double($0) / 25 }
        #expect(harness.shownTimes.count == expected.count)
        #expect(zip(harness.shownTimes, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(harness.shownTimes)")
        for (index, shown) in harness.video.shown.enumerated().dropFirst() {
            #expect(abs(shown.at - (playedAt + Double(index) * 0.04)) < 1e-9, "frame \(index) at \(shown.at - playedAt)")
        }
        #expect(harness.control.read { $0.statistics.framesDropped } == 0)
        #expect(harness.events.count { if case .endOfStream = $0 { true } else { false } } == 1)
    }

    /// An output that wants no idle calls (a wall's tile) is never given one, and its
    /// pictures show at exactly the times an output that wants them gets: only the loop's
    /// wake-ups between pictures differ (every 0.1 s instead of every 10 ms).
    @Test func anOutputWithoutIdleShowsTheSameFramesAtTheSameTimes() throws {
        func played(wantsIdle: Bool) throws -> (shown: [Double], at: [Double], idleCalls: Int) {
            let harness = try SessionHarness(duration: 2, audio: false)
            harness.video.wantsIdle = wantsIdle
            harness.play()
            harness.run(for: 3)
            return (harness.shownTimes, harness.video.shown.map(\.at), harness.video.idleCalls)
        }
        let quiet = try played(wantsIdle: false), idling = try played(wantsIdle: true)
        #expect(quiet.idleCalls == 0 && idling.idleCalls > 0)
        #expect(quiet.shown.count == 50 && quiet.shown == idling.shown && quiet.at == idling.at)
    }

    /// The audio clock leads; each picture shows within a frame of the sound heard.
    @Test(arguments: [0.0, 0.005, -0.005])
    func videoFollowsTheSoundCardWithinAFrameWhateverItsDrift(drift: Double) throws {
        let harness = try SessionHarness(duration: 6)
        harness.deviceDrift = drift
        harness.play()
        harness.run(for: 5.5)
        let settled = harness.video.shown.filter { $0.pts >= 0.5 }
        #expect(settled.count > 100)
        for shown in settled {
            let offset = shown.pts - (shown.audio ?? .nan)
            #expect(abs(offset) < 0.04, "pts \(shown.pts): \(offset * 1000) ms from the audio clock")
        }
    }

    /// A stalled sound card (0.3 s of its own silence) puts the audio clock back; video
    /// waits for it and is within a frame again a second later.
    @Test func videoWaitsForTheSoundAfterADeviceStall() throws {
        let harness = try SessionHarness(duration: 6)
        let start = harness.now
        harness.deviceStall = (start + 1.0)...(start + 1.3)
        harness.play()
        harness.run(for: 5)
        let after = harness.video.shown.filter { $0.at > start + 2.3 }
        #expect(after.count > 50)
        for shown in after {
            #expect(abs(shown.pts - (shown.audio ?? .nan)) < 0.04, "pts \(shown.pts) heard at \(shown.audio ?? .nan)")
        }
        let stalled = harness.video.shown.filter { $0.at > start + 1.3 && $0.at < start + 2.3 }
        #expect(stalled.allSatisfy { $0.pts - ($0.audio ?? 0) > -0.04 }, "video never behind the sound while it waits")
    }

    /// 30 ms of the device's own silence 2.5 s in puts the audio clock back by less than
    /// ffplay's threshold, which would leave the offset for ever; Reel's gentle correction
    /// takes it back to the clock noise (the 3 ms it leaves alone) within 1.5 s, without a
    /// jump. (Without the correction the offset stays where the device's first pull left it.)
    @Test func aShortDeviceUnderrunLeavesNoLastingOffset() throws {
        let harness = try SessionHarness(duration: 8)
        let start = harness.now
        harness.deviceStall = (start + 2.5)...(start + 2.53)
        harness.play()
        harness.run(for: 7)
        let offsets = harness.video.shown.map { (at: $0.at - start, offset: $0.pts - ($0.audio ?? .nan)) }
        let during = offsets.filter { $0.at > 2.6 && $0.at < 3 }
        #expect(during.contains { $0.offset > 0.02 }, "the underrun put video ahead: \(during.map { Int($0.offset * 1000) }) ms")
        let settled = offsets.filter { $0.at > 4 }
        #expect(settled.count > 50)
        #expect(settled.allSatisfy { abs($0.offset) <= 0.004 }, "offsets after 4 s: \(settled.map { Int($0.offset * 1000) }) ms")
        #expect(harness.control.read { $0.statistics.framesDropped } == 0)
    }

    /// Pictures decoded 0.15 s late, with the sound on time, show back to back until the
    /// picture is with the sound again (ffplay's rule: a frame's delay shrinks by the drift).
    @Test func latePicturesCatchUpWithTheSound() throws {
        let harness = try SessionHarness(duration: 4) { engine in
            engine.arrival = { index, start in index >= 25 && index < 30 ? start + 1.15 : start + Double(index) / 25 }
        }
        harness.play()
        harness.run(for: 3)
        #expect(harness.shownTimes == harness.shownTimes.sorted())
        #expect(harness.events.bufferingChanges.isEmpty, "a 0.19 s gap is not starvation")
        let synced = harness.video.shown.filter { $0.pts >= 1.4 }
        #expect(synced.allSatisfy { abs($0.pts - ($0.audio ?? .nan)) < 0.04 })
    }

    /// A window that takes 60 ms to show each 25 fps picture cannot show them all: late
    /// ones are dropped and the picture stays with the sound.
    @Test func aSlowOutputDropsPicturesAndKeepsSync() throws {
        let harness = try SessionHarness(duration: 5)
        harness.video.presentDuration = 0.06
        harness.play()
        harness.run(for: 4.5)
        let dropped = harness.control.read { $0.statistics.framesDropped }
        let shown = harness.control.read { $0.statistics.framesShown }
        #expect(dropped > 20 && shown > 40, "dropped \(dropped), shown \(shown)")
        let late = harness.video.shown.filter { $0.pts >= 1 }.map { $0.pts - ($0.audio ?? .nan) }
        #expect(late.allSatisfy { abs($0) < 0.1 }, "offsets \(late.map { Int($0 * 1000) })")
    }

    /// Frames stop for a second: the display buffers (the clocks hold, the sound goes
    /// quiet) and goes on once three frames are queued, from where it was.
    @Test func starvedPlaybackBuffersAndResumesWhereItWas() throws {
        let harness = try SessionHarness(duration: 4) { engine in
            engine.arrival = { index, start in index >= 25 && index < 75 ? start + 2.2 : start + Double(index) / 25 }
            engine.audioArrival = { time, start in time >= 1 && time < 3 ? start + 2.2 : start + time }
        }
        let start = harness.now
        harness.play()
        harness.run(for: 1.6)
        #expect(harness.events.bufferingChanges == [true])
        let held = harness.control.position(harness.session.master, at: harness.now)
        harness.run(for: 0.4)
        #expect(harness.control.position(harness.session.master, at: harness.now) == held, "the clock stands still while buffering")
        harness.run(for: 1)
        #expect(harness.events.bufferingChanges == [true, false])
        let resumed = harness.video.shown.first { $0.at > start + 2.2 }
        #expect(resumed.map { abs($0.pts - 1.0) < 1e-9 } == true, "the next picture is the one after the gap: \(String(describing: resumed))")
        #expect(harness.control.read { $0.statistics.framesDropped } == 0)
    }
}
