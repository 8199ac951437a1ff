import Foundation
import Reel
import Testing

extension ServerPlaybackTests {
    /// The player fed over HTTP by a server that misbehaves on purpose.
    @Suite(.serialized) struct PlayerNetworkTests {
        private func streamFile() throws -> String {
            try Fixtures.made("seekable-10s.ts", ["-i", try Fixtures.seekable(), "-c", "copy", "-f", "mpegts"])
        }

        @Test(.timeLimit(.minutes(1))) func aServerThatHangsUpMidStreamEndsInAnError() async throws {
            let server = try ScriptedHTTPServer(serving: try streamFile(), fraction: 0.3, then: .hangUp)
            defer { server.stop() }
            var configuration = Player.Configuration()
            configuration.untimed = true
            let player = Player.headless(configuration: configuration)
            let events = EventLog(player)
            try await player.open(server.url)
            player.play()
            #expect(await events.wait(timeout: 20) { if case .error = $0 { true } else { false } }, "no error event")
            #expect(await events.wait { isState(.failed)($0) })
            let message = events.all.compactMap { if case .error(let error) = $0 { error.description } else { nil } }.first ?? ""
            #expect(message.contains("stream.ts"), "\(message)")
            player.stop()
        }

        /// Cancelling the task that opens an input interrupts FFmpeg's blocking open: a
        /// server that never answers holds the caller for no longer than it takes to cancel.
        @Test(.timeLimit(.minutes(1))) func cancellingAnOpenInterruptsIt() async throws {
            let server = try SilentServer()
            defer { server.stop() }
            var configuration = Player.Configuration()
            configuration.input.timeout = 30
            let player = Player.headless(configuration: configuration)
            let opening = Task { try await player.open("http://127.0.0.1:\(server.port)/clip.mp4") }
            // Cancel once FFmpeg is connected and blocked waiting for the server's answer.
            let deadline = Date().addingTimeInterval(20)
            while server.acceptedCount == 0 && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
            let cancelledAt = Date()
            opening.cancel()
            let result = await opening.result
            let took = Date().timeIntervalSince(cancelledAt)
            #expect(took < 2, "the open returned \(took) s after the cancellation (its timeout is 30 s)")
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(player.state == .idle)
            print("Cancelled open: returned \(String(format: "%.3f", took)) s after the cancellation (timeout 30 s)")
        }

        @Test(.timeLimit(.minutes(1))) func aStallingServerMeansBufferingThenPlayingAgain() async throws {
            // 2 s of media, then nothing for 5 s: playback starves after about 2 s, and stays
            // starved well past the half second the test watches it (a slow start shortens it).
            let server = try ScriptedHTTPServer(serving: try streamFile(), fraction: 0.2, then: .stall(seconds: 5))
            defer { server.stop() }
            var configuration = Player.Configuration()
            configuration.input.timeout = 10
            // Start after half a second of analysis, as for a live source, not after five.
            configuration.input.formatOptions = ["analyzeduration": "500000"]
            let player = Player.headless(configuration: configuration)
            let events = EventLog(player)
            try await player.open(server.url)
            player.play()
            #expect(await events.wait(timeout: 10) { isState(.buffering)($0) }, "no buffering state: \(events.states)")
            let stalledAt = player.currentTime ?? 0
            try await Task.sleep(for: .milliseconds(500))
            #expect(abs((player.currentTime ?? 0) - stalledAt) < 0.05, "the clock stands still while buffering")
            #expect(await events.wait(timeout: 15) { _ in events.states.suffix(from: 1).contains(.buffering) && events.states.last == .playing })
            #expect(await events.wait(timeout: 15) { if case .endOfStream = $0 { true } else { false } })
            #expect(player.statistics.framesShown > 200)
            player.stop()
        }
    }
}
