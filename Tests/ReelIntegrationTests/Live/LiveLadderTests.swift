import Foundation
import Reel
@testable import ReelPlayer
import ReelCore
import Testing

extension ServerPlaybackTests {
    /// A live HLS ladder (nginx-rtmp's master playlist of two variants, `hls_variant`) played
    /// live: the engine policy keeps it on the FFmpeg engine, which reconnects and keeps
    /// the latency on target for it as for any live input.
    @Suite(.serialized) struct LiveLadderTests {
        /// nginx with the ladder published from the 20 s recording source, looped, and
        /// two fragments of each variant listed.
        private func ladder() throws -> (server: RTMPServer, publisher: BackgroundProcess) {
            let server = try RTMPServer()
            let publisher = try publishLadder(try RecordingTests.published(), to: server, name: "ladder", loops: -1)
            try waitFor("two HLS fragments of each variant", while: publisher) {
                server.hlsHasFragments(2, name: "ladder_low") && server.hlsHasFragments(2, name: "ladder_high")
            }
            return (server, publisher)
        }

        /// nginx and its publisher killed and started again, three times, as in
        /// ``ReconnectTests``: the picture back within 2 s of the publisher's return, nothing
        /// left behind.
        @Test(.timeLimit(.minutes(3))) func aLiveLadderPlaysOnAfterNginxIsKilled() throws {
            var (server, publisher) = try ladder()
            defer { publisher.stop() }
            let cycles = try ReconnectCycles(url: server.hlsURL("ladder"), cycles: 3) {
                server.kill()
                publisher.kill()
            } bringBack: {
                try server.start()
                publisher = try publishLadder(try RecordingTests.published(), to: server, name: "ladder", loops: -1)
                try server.waitForPublisher(publisher)
            }
            print(cycles.line("live HLS ladder, nginx killed"))
            try #require(cycles.counts.count >= 3)
            #expect(cycles.resumed(within: 2), "\(cycles.resumes)\n\(cycles.log)")
            let (first, last) = (cycles.counts.first!, cycles.counts.last!)
            #expect(last.threads <= first.threads + 1 && last.descriptors == first.descriptors, "\(cycles.counts)")
            #expect(cycles.statistics["engine"] as? String == "ffmpeg", "\(cycles.statistics)")
        }

        /// Paused until 3 s behind the newest media read, then played again: a jump to the
        /// target at once (beyond the 2 s bound), not a catch-up, through the FFmpeg engine.
        @Test(.timeLimit(.minutes(1))) func aLiveLadderFarBehindJumpsAheadToTheTarget() async throws {
            let (server, publisher) = try ladder()
            defer { publisher.stop() }
            var configuration = Player.Configuration()
            configuration.liveLatency = LiveLatency(target: 0.3, jumpAbove: 2)
            let player = Player.headless(configuration: configuration, video: HeadlessVideoOutput())
            let events = EventLog(player)
            try await player.open(server.hlsURL("ladder"))
            player.play()
            #expect(await events.wait(timeout: 20) { if case .time(let position) = $0 { position > 0 } else { false } }, "not playing")
            player.pause()
            #expect(await events.wait(timeout: 20) { if case .liveLatency(let latency) = $0 { latency >= 3 } else { false } },
                    "the latency did not grow to 3 s while paused")
            let adjustments = { events.all.compactMap { if case .liveAdjusted(let adjustment) = $0 { adjustment } else { nil } } }
            let beforeResuming = adjustments().count
            player.play()
            let resumedAt = monotonicSeconds()
            let jumped = await events.wait(timeout: 10) { _ in
                adjustments().dropFirst(beforeResuming).contains { if case .jumped = $0 { true } else { false } }
            }
            let onTarget = await events.wait(timeout: 10, skipping: events.all.count) { if case .liveLatency(let latency) = $0 { latency <= 0.5 } else { false } }
            let back = monotonicSeconds() - resumedAt
            let statistics = player.statistics
            player.stop()
            let seen = Array(adjustments().dropFirst(beforeResuming))
            print(String(format: "live HLS ladder: 3 s behind, on target %.2f s after playing again; %@", back, "\(seen)"))
            #expect(jumped && onTarget, "\(seen), latency \(String(describing: statistics.liveLatency))")
            #expect(!seen.contains { if case .catchingUp = $0 { true } else { false } }, "beyond the bound, a jump: \(seen)")
            #expect(statistics.liveJumps >= 1 && statistics.engine == .ffmpeg, "\(statistics)")
        }
    }
}
