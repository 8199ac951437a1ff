import Foundation
import Reel
@testable import ReelPlayer
import ReelCore
import Testing

extension ServerPlaybackTests {
    /// A live input that goes away and comes back: nginx killed and started again, the
    /// publisher restarted while nginx keeps the player's connection, a stream that never
    /// returns.
    @Suite(.serialized) struct ReconnectTests {
        /// nginx killed and started again five times: each time the picture is back within
        /// 2 s of the publisher's return, nothing is left behind, and the JSON report counts
        /// the reconnects beside the live keys.
        @Test(.timeLimit(.minutes(3))) func nginxKilledFiveTimesPlaybackResumesEachTimeWithNothingLeft() throws {
            let server = try RTMPServer()
            var publisher = try publishTestStream(to: server.url())
            defer { publisher.stop() }
            let cycles = try ReconnectCycles(url: server.url(), cycles: 5) {
                server.kill()
                publisher.kill()
            } bringBack: {
                try server.start()
                publisher = try publishTestStream(to: server.url())
                try server.waitForPublisher(publisher)
            }
            print(cycles.line("nginx-rtmp (killed)"))
            try #require(cycles.counts.count >= 5)
            #expect(cycles.resumed(within: 2), "\(cycles.resumes)\n\(cycles.log)")
            // A thread or a descriptor kept per cycle would add 4 by the fifth. One thread more
            // than after the first can be a worker GCD keeps for a few seconds after the
            // freed-memory trim ran on it (a loaded run saw 16 then 17).
            let (first, last) = (cycles.counts.first!, cycles.counts.last!)
            #expect(last.threads <= first.threads + 1 && last.descriptors == first.descriptors, "\(cycles.counts)")
            let statistics = cycles.statistics
            #expect(statistics["reconnects"] as? Int == cycles.counts.count, "\(statistics)")
            let pictureBack = statistics["first_picture_after_reconnect"] as? Double
            let outage = statistics["reconnect_outage"] as? Double
            // The outage runs from the loss, which comes before the attempt that succeeded.
            #expect(pictureBack.map { $0 > 0 && $0 < 2 } == true, "\(statistics)")
            if let pictureBack, let outage { #expect(outage >= pictureBack, "\(statistics)") } else { Issue.record("\(statistics)") }
            let liveKeys = (statistics["live_latency"] as? Double, statistics["live_catch_ups"] as? Int, statistics["live_jumps"] as? Int)
            #expect(liveKeys.0 != nil && liveKeys.1 != nil && liveKeys.2 != nil, "\(statistics)")
        }

        /// The publisher killed and started again while nginx keeps the player's connection:
        /// its timestamps start again, so the input is opened again; the picture is back
        /// within 2 s of the publisher's return, and once it plays every flash of the
        /// flash-and-beep clip meets its beep within a frame, timed by the outputs' device
        /// logs (not by the player's own A-V offset). The first picture is shown as soon as
        /// it is decoded and held while the live latency builds up (to its 0.3 s target), before the
        /// clocks start: its flash, if it is one, precedes its beep by that hold.
        @Test(.timeLimit(.minutes(2))) func aPublisherThatRestartsIsBackInSyncFromItsFirstPicture() async throws {
            let clip = try Fixtures.flashAndBeep(seconds: 20)
            let server = try RTMPServer()
            let publish = { try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-re", "-stream_loop", "-1", "-i", clip, "-c", "copy", "-f", "flv", server.url()]) }
            var publisher = try publish()
            defer { publisher.stop() }
            let video = HeadlessVideoOutput(measureLuma: true)
            let audio = HeadlessAudioOutput(keepSamples: true)
            // Sync across the restart alone: no catch-up (a loaded CI's catch-up at 1.1× moved
            // one flash 143 ms off its beep as the rate changed; catch-up is its own subject).
            var configuration = Player.Configuration()
            configuration.liveLatency.catchUpRate = 1
            let player = Player.headless(configuration: configuration, video: video, audio: audio)
            let events = EventLog(player)
            try await player.open(server.url())
            player.play()
            #expect(await events.wait(timeout: 20) { if case .time(let position) = $0 { position >= 3 } else { false } })
            publisher.kill()
            // Down a second: nginx keeps the player's connection, silent.
            try await Task.sleep(for: .seconds(1))
            publisher = try publish()
            try server.waitForPublisher(publisher)
            let back = monotonicSeconds()
            let shown = await events.wait(timeout: 20) { if case .firstPictureAfterReconnect = $0 { true } else { false } }
            let pictureBack = monotonicSeconds() - back
            let interesting = { events.all.filter { if case .time = $0 { false } else if case .liveLatency = $0 { false } else { true } } }
            try #require(shown, "\(interesting())")
            // 7.5 s into the stream again: the flashes of seconds 1 to 7 and their beeps.
            let reconnected = events.index { if case .firstPictureAfterReconnect = $0 { true } else { false } } ?? 0
            #expect(await events.wait(timeout: 20, skipping: reconnected) { if case .time(let position) = $0 { position >= 7.5 } else { false } },
                    "\(interesting())")
            // Playing from the second picture after the return on.
            let shownSince = video.presentations.filter { $0.deviceTime >= back }
            let sync = shownSince.count >= 2 ? FlashBeepSync(video: video, audio: audio, from: shownSince[1].deviceTime) : FlashBeepSync()
            let held = shownSince.prefix(2).map(\.deviceTime)
            player.stop()
            let offsets = sync.offsets
            print(String(format: "publisher restarted: picture back %.2f s after it was back, held %.0f ms; flash minus beep from the next on: %@ ms", pictureBack,
                         held.count == 2 ? (held[1] - held[0]) * 1000 : -1, offsets.map { String(format: "%+.0f", $0 * 1000) }.joined(separator: " ")))
            // CI: 1.18 to 1.21 s, a loaded machine's share of it the publisher's start.
            #expect(pictureBack <= 3)
            #expect(offsets.count >= 6 && offsets.allSatisfy { abs($0) <= 1.0 / 25 }, "\(offsets); \(interesting())")
        }

        @Test(.timeLimit(.minutes(1))) func aStreamThatNeverReturnsFailsWithOneLine() throws {
            let server = try RTMPServer()
            let publisher = try publishTestStream(to: server.url())
            defer { publisher.stop() }
            let directory = try Paths.temporaryDirectory()
            let errors = directory.appendingPathComponent("stderr.txt").path
            // --stats for its live line: the loss comes once the stream plays (a loaded
            // machine's open can take longer than a fixed wait).
            let player = try BackgroundProcess(Paths.reel, ["play", "--headless", "--stats", "--reconnect-for", "3", "--timeout", "2", server.url()], errorPath: errors)
            defer { player.stop() }
            try #require(waitForText(" shown ", count: 2, in: errors, timeout: 20) != nil, "not playing")
            server.kill()
            publisher.stop()
            #expect(player.waitForExit(within: 15), "still reconnecting")
            #expect(player.exitStatus == 1)
            let lines = ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").split(separator: "\n")
            let attempts = lines.filter { $0.contains("reconnecting (attempt") }.count
            let final = reelMessages(String(lines.last ?? "")).last ?? ""
            print("never returns: \(attempts) attempts; \(final)")
            #expect((3...5).contains(attempts), "\(lines)")
            #expect(final.hasPrefix("reel: the live input did not come back (\(attempts) attempts in "), "\(final)")
        }
    }
}
