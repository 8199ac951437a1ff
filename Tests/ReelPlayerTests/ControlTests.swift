@testable import ReelPlayer
import ReelCore
import Testing

/// Pause, step, seek, the end and playing again, on a manual clock with exact outcomes.
@Suite struct ControlTests {
    @Test func pauseHoldsThePictureAndTheClockAndPlayGoesOnFromThere() throws {
        let harness = try SessionHarness(duration: 4)
        harness.play()
        harness.run(for: 1)
        harness.pause()
        let shown = harness.shownTimes
        let position = harness.control.position(harness.session.master, at: harness.now)
        harness.run(for: 5)
        #expect(harness.shownTimes == shown, "nothing shown while paused")
        #expect(harness.control.position(harness.session.master, at: harness.now) == position)
        harness.play()
        harness.run(for: 0.2)
        let next = harness.shownTimes.dropFirst(shown.count).first
        #expect(next.map { abs($0 - (shown.last! + 0.04)) < 1e-6 } == true, "on from \(shown.last!): \(String(describing: next))")
    }

    @Test func aStepShowsExactlyTheNextPictureAndStaysPaused() throws {
        let harness = try SessionHarness(duration: 4)
        harness.play()
        harness.run(for: 1)
        harness.pause()
        harness.run(for: 0.5)
        let before = harness.shownTimes
        harness.control.update { $0.stepsRequested += 2 }
        harness.run(for: 0.5)
        #expect(Array(harness.shownTimes.dropFirst(before.count)).count == 2)
        let last = harness.shownTimes.last!
        #expect(abs(last - (before.last! + 0.08)) < 1e-6)
        #expect(harness.control.position(harness.session.master, at: harness.now) == last, "the clock is on the picture stepped to")
        #expect(harness.control.read { $0.steppedWhilePaused })
    }

    /// An exact seek lands on the picture that covers the target; the pictures the engine
    /// decodes from the keyframe before it are not shown.
    @Test(arguments: [SeekMode.exact, .keyframe])
    func aSeekLandsOnThePictureItAsksFor(mode: SeekMode) throws {
        let harness = try SessionHarness(duration: 4)
        harness.play()
        harness.run(for: 0.5)
        let before = harness.video.shown.count
        harness.session.requestSeek(to: 2.52, mode: mode)
        #expect(harness.engine.seeks.last.map { ($0.target, $0.mode, $0.serial) == (2.52, mode, 1) } == true)
        harness.run(for: 0.5)
        let first = harness.video.shown.dropFirst(before).first?.pts
        let landing = mode == .exact ? 2.52 : 2.0
        #expect(first.map { abs($0 - landing) < 1e-6 } == true, "first shown after the seek: \(String(describing: first))")
        let completed = harness.events.all.compactMap { if case .seekCompleted(let position) = $0 { position } else { nil } }
        #expect(completed.last.map { abs($0 - landing) < 1e-6 } == true)
    }

    /// An audio switch starts a timeline at the position (an exact seek, as mpv's refresh
    /// seek), with the engine told of the stream first; the picture goes on from there.
    @Test func anAudioSwitchStartsATimelineAtThePosition() throws {
        let harness = try SessionHarness(duration: 4)
        harness.play()
        harness.run(for: 1)
        let position = try #require(harness.control.position(harness.session.master, at: harness.now))
        try harness.session.switchAudio(to: 2, at: position)
        #expect(harness.engine.switches == [2])
        #expect(harness.engine.seeks.map { [$0.target, $0.mode == .exact ? 1 : 0, Double($0.serial)] } == [[position, 1, 1]])
        #expect(harness.control.read { $0.audioStreamIndex } == 2)
        let before = harness.video.shown.count
        harness.run(for: 0.5)
        let next = harness.video.shown.dropFirst(before).first?.pts
        #expect(next.map { $0 <= position && position < $0 + 0.04 } == true, "on from \(position): \(String(describing: next))")
    }

    /// A frame tap whose subscriber never reads (a stalled picture-in-picture or
    /// recorder) loses frames at the tap; what the window shows, and when, is unchanged.
    @Test func aStalledTapSubscriberDoesNotDisturbPresentation() throws {
        let plain = try SessionHarness(duration: 2)
        let tap = FrameTap()
        let subscription = tap.subscribe(format: nil, bufferLimit: 1)
        let tapped = try SessionHarness(duration: 2, tap: tap)
        for harness in [plain, tapped] {
            harness.play()
            harness.run(for: 2.5)
        }
        let start = (plain.video.shown.first?.at ?? 0, tapped.video.shown.first?.at ?? 0)
        #expect(plain.video.shown.map { [$0.pts, $0.at - start.0] } == tapped.video.shown.map { [$0.pts, $0.at - start.1] })
        #expect(plain.video.shown.count == 50)
        #expect(subscription.droppedFrames > 0, "the subscriber lost frames, not the window")
        subscription.cancel()
    }

    @Test func theEndComesOnceAndASeekPlaysAgain() throws {
        let harness = try SessionHarness(duration: 1)
        harness.play()
        harness.run(for: 2)
        let ends = { harness.events.count { if case .endOfStream = $0 { true } else { false } } }
        #expect(ends() == 1)
        #expect(harness.control.read { $0.readerAtEnd })
        harness.session.requestSeek(to: 0, mode: .keyframe)
        harness.run(for: 2)
        #expect(ends() == 2)
        #expect(harness.shownTimes.filter { $0 == 0 }.count == 2)
    }

    /// From the end on, the position stands still at the end, however late it is read (it
    /// ran on with the clock before: a loaded run read 3.01 s of a 3 s file); a seek lets
    /// it run again.
    @Test func thePositionStandsStillFromTheEnd() throws {
        let harness = try SessionHarness(duration: 1)
        harness.play()
        harness.run(for: 1.5)
        #expect(harness.events.count { if case .endOfStream = $0 { true } else { false } } == 1)
        let master = harness.session.master
        let atEnd = try #require(harness.control.position(master, at: harness.now))
        #expect(abs(atEnd - 1) <= 0.02, "\(atEnd)")
        harness.run(for: 5)
        #expect(harness.control.position(master, at: harness.now) == atEnd)
        harness.session.requestSeek(to: 0, mode: .keyframe)
        harness.run(for: 0.5)
        let playing = try #require(harness.control.position(master, at: harness.now))
        #expect(playing > 0.3 && playing < 0.6, "\(playing)")
    }

    /// The race CI once met (PlaybackRaceTests held a thread to make it): the reader tells
    /// of the end of a timeline after a seek started the next one. That end is not the
    /// new timeline's, which is then read to its own end.
    @Test func anEndToldAfterASeekDoesNotEndTheNewTimeline() throws {
        let harness = try SessionHarness(duration: 1)
        harness.play()
        harness.run(for: 2)
        harness.session.requestSeek(to: 0, mode: .keyframe)
        harness.session.readerReachedEnd(serial: 0)
        #expect(!harness.control.read { $0.readerAtEnd })
        harness.run(for: 2)
        #expect(harness.events.count { if case .endOfStream = $0 { true } else { false } } == 2)
    }

    /// A damaged picture the engine never delivers leaves a gap; the next one shows on
    /// its own time and the sound is not disturbed.
    @Test func aMissingPictureLeavesAGapNotADrift() throws {
        let harness = try SessionHarness(duration: 2) { $0.missingFrames = [20] }
        harness.play()
        harness.run(for: 1.5)
        #expect(!harness.shownTimes.contains { abs($0 - 0.8) < 1e-6 })
        let after = harness.video.shown.first { $0.pts > 0.8 }
        #expect(after.map { abs($0.pts - ($0.audio ?? .nan)) < 0.04 } == true)
    }
}
