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

        /// nginx and its publisher killed and started again: nginx serves the old stream's
        /// segments again at once (the picture is back from them), then the new stream's,
        /// whose timestamps start again. The input is opened again at its newest segment and
        /// plays on. From three segments back (FFmpeg's start) each attempt met the old
        /// segments and the same jump again, as long as they were listed (six jumps, and the
        /// loop went on past the test's 20 s).
        @Test(.timeLimit(.minutes(2))) func aLadderBackFromAKilledNginxPlaysOnAfterOneJump() throws {
            let (server, first) = try ladder()
            var publisher = first
            defer { publisher.stop() }
            let directory = try Paths.temporaryDirectory()
            let errors = directory.appendingPathComponent("stderr.txt").path
            let player = try BackgroundProcess(Paths.reel, ["play", "--headless", "--stats", server.hlsURL("ladder")],
                                               outputPath: directory.appendingPathComponent("report.json").path, errorPath: errors)
            defer { player.stop() }
            let log = { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }
            let liveLines = { log().components(separatedBy: " shown ").count - 1 }
            try #require(waitForText(" shown ", count: 8, in: errors, timeout: 20) != nil, "not playing: \(log().suffix(800))")
            server.kill()
            publisher.kill()
            try #require(waitForText("reconnecting (attempt 1)", in: errors, timeout: 20) != nil, "the loss was not noticed: \(log().suffix(800))")
            try server.start()
            publisher = try publishLadder(try RecordingTests.published(), to: server, name: "ladder", loops: -1)
            try server.waitForPublisher(publisher)
            let back = Date()
            let pictureBack = waitForText("reel: picture back", in: errors, timeout: 20).map { $0.timeIntervalSince(back) }
            // Eight seconds of playing on (the old segments leave the playlist after six),
            // then four more without another reopen.
            let playedOn = waitForText(" shown ", count: liveLines() + 16, in: errors, timeout: 30) != nil
            let reopens = reelMessages(log()).filter { $0.contains("reconnecting") }.count
            let steady = waitForText(" shown ", count: liveLines() + 8, in: errors, timeout: 30) != nil
            let all = reelMessages(log())
            let jumps = all.filter { $0.contains("timestamps jumped") }.count
            print(String(format: "live HLS ladder, nginx killed: picture back %.2f s after the stream; %d reopens for a jump", pictureBack ?? .nan, jumps))
            #expect(pictureBack.map { $0 < 2 } == true && playedOn && steady, "\(all.joined(separator: "\n"))\n\(log().suffix(400))")
            #expect(jumps <= 2 && all.filter { $0.contains("reconnecting") }.count == reopens, "\(all.joined(separator: "\n"))")
        }

        /// Paused until 3 s behind the newest media read, then played again: a jump to the
        /// target at once (beyond the 2 s bound), not a catch-up, through the FFmpeg engine.
        /// The newest media read moves a segment (1 s) at a time, so the latency after it
        /// runs from the target up to a segment more (0.5 to 1.3 s seen), under the bound.
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
            let (beforeResuming, jumpsBefore) = (adjustments().count, player.statistics.liveJumps)
            player.play()
            let jumped = await events.wait(timeout: 10) { _ in
                adjustments().dropFirst(beforeResuming).contains { if case .jumped = $0 { true } else { false } }
            }
            let afterJump = events.all.count
            let latencies = { events.all.dropFirst(afterJump).compactMap { if case .liveLatency(let latency) = $0 { latency } else { nil } } }
            #expect(await events.wait(timeout: 20) { _ in latencies().count >= 16 }, "the latency stopped being measured after the jump")
            let statistics = player.statistics
            player.stop()
            let seen = Array(adjustments().dropFirst(beforeResuming))
            let after = latencies()
            print(String(format: "live HLS ladder: 3 s behind, then %.2f to %.2f s over %d measures after the jump; %@",
                         after.min() ?? .nan, after.max() ?? .nan, after.count, "\(seen)"))
            #expect(jumped && (after.min() ?? .infinity) < 0.8 && (after.max() ?? .infinity) < 2, "\(seen): \(after)")
            #expect(!seen.contains { if case .catchingUp = $0 { true } else { false } }, "beyond the bound, a jump: \(seen)")
            #expect(statistics.liveJumps == jumpsBefore + 1 && statistics.engine == .ffmpeg, "one jump: \(statistics)")
        }
    }
}
