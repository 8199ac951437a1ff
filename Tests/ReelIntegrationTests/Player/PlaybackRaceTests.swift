import Dispatch
import Foundation
import Reel
@testable import ReelPlayer
import Testing

extension PlaybackTests {
    /// Races between the playback's threads, made certain by holding one thread at the
    /// critical point (``PlaybackTestHooks``) instead of hoping a busy machine does it.
    @Suite struct PlaybackRaceTests {
        /// Holds the first thread that reaches it until opened; later ones pass.
        final class Gate: @unchecked Sendable {
            private let opened = DispatchSemaphore(value: 0)
            private let reached = DispatchSemaphore(value: 0)
            private let lock = NSLock()
            private var used = false

            func pass() {
                let first = lock.withLock { () -> Bool in
                    defer { used = true }
                    return !used
                }
                guard first else { return }
                reached.signal()
                _ = opened.wait(timeout: .now() + 20)
            }

            func waitUntilReached() async -> Bool {
                await withCheckedContinuation { continuation in
                    DispatchQueue.global().async { continuation.resume(returning: self.reached.wait(timeout: .now() + 20) == .success) }
                }
            }

            func open() { opened.signal() }
        }

        /// CI saw this once on a busy machine: the reader queued its end markers, both
        /// streams ended, the user pressed play (a seek to 0), and only then did the reader
        /// record "at end", now for the new timeline, which it therefore never read.
        @Test(.timeLimit(.minutes(1))) func playAgainWhileTheReaderIsStillRecordingTheEnd() async throws {
            let gate = Gate()
            let player = Player(configuration: { var c = Player.Configuration(); c.untimed = true; return c }(),
                                videoOutput: { RecordingVideoOutput() }, audioOutput: { HeadlessAudioOutput(untimed: true) })
            player.testHooks.readerReachingEnd = { gate.pass() }
            let events = EventLog(player)
            try await player.open(Fixtures.named("h264-baseline-aac.mp4").path)
            player.play()
            #expect(await gate.waitUntilReached())
            #expect(await events.wait { isState(.ended)($0) }, "both streams end while the reader is held")
            player.play()
            gate.open()
            let ends = { events.count(where: { if case .endOfStream = $0 { true } else { false } }) }
            #expect(await events.wait { _ in ends() >= 2 }, "the second timeline is read and ends")
            #expect(player.state == .ended)
            player.stop()
        }

        /// CI saw a click on the progress bar of a paused window show nothing: the reader,
        /// waiting at the end of the input, acted on the seek before the queues had moved
        /// to the new timeline, and they dropped its first packets, the keyframe among them.
        @Test(.timeLimit(.minutes(1))) func theReaderActsOnASeekBeforeTheSeekCallReturns() async throws {
            let path = try Fixtures.seekable()
            let keyframes = try keyframeTimes(path)
            let video = RecordingVideoOutput()
            let player = Player(videoOutput: { video }, audioOutput: { HeadlessAudioOutput() })
            player.testHooks.seekPublished = { Thread.sleep(forTimeInterval: 0.1) }
            let events = EventLog(player)
            try await player.open(path, startingAt: 3.2)
            #expect(await events.wait { if case .firstFrame = $0 { true } else { false } })
            try await Task.sleep(for: .milliseconds(300))
            for target in [8.0, 1.1, 5.3] {
                player.seek(to: target)
                let landing = keyframes.last { $0 <= target + 1e-6 } ?? 0
                let arrived = await events.wait(timeout: 5) { event in
                    if case .seekCompleted(let position) = event { abs(position - landing) < 0.001 } else { false }
                }
                #expect(arrived, "seek to \(target): shown \(video.shown.map(\.pts).suffix(3)), expected the keyframe at \(landing)")
            }
            player.stop()
        }
    }
}
