import Dispatch
import Foundation
import Reel
import Testing

extension PlaybackTests {
    /// Races between the playback's threads that CI once met. The end told after a seek
    /// (the reader recording the end of a timeline a seek had replaced) is reproduced
    /// exactly by ordering in ReelPlayerTests (`ControlTests`).
    @Suite struct PlaybackRaceTests {
        /// CI saw a click on the progress bar of a paused window show nothing: the reader,
        /// waiting at the end of the input, acted on the seek before the queues had moved
        /// to the new timeline, and they dropped its first packets, the keyframe among them.
        /// The FFmpeg engine now empties its packet queues in the call that posts the seek
        /// to its reader, before the post; seeks from the end must land where they ask.
        @Test(.timeLimit(.minutes(1))) func seeksFromTheEndOfTheInputLandOnTheirKeyframes() async throws {
            let path = try Fixtures.seekable()
            let keyframes = try keyframeTimes(path)
            let video = RecordingVideoOutput()
            let player = Player(videoOutput: { video }, audioOutput: { HeadlessAudioOutput() })
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
