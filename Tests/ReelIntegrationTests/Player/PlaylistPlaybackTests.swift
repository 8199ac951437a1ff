import Foundation
import Reel
import Testing

extension PlaybackTests {
    /// Playlists as mpv plays them: items in order, loops, skips and moves, each item's
    /// frames against ffmpeg's framemd5 of the file, and the gap between items.
    @Suite(.serialized) struct PlaylistPlaybackTests {
        /// One-second clips told apart by their hue, with sound.
        static func clip(_ number: Int) throws -> String {
            try Fixtures.made("playlist-clip-\(number).mp4", [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=1,hue=h=\(number * 120)",
                "-f", "lavfi", "-i", "sine=frequency=\(300 + 100 * number):sample_rate=48000:duration=1",
                "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        }

        /// Plays `playlist` untimed to its end and returns the MD5s of the frames shown.
        private func playToEnd(_ playlist: Playlist) async throws -> (shown: [String], events: EventLog) {
            var configuration = Player.Configuration()
            configuration.untimed = true
            let video = RecordingVideoOutput()
            let player = Player(configuration: configuration, videoOutput: { video }, audioOutput: { HeadlessAudioOutput(untimed: true) })
            let events = EventLog(player)
            try await player.open(playlist)
            player.play()
            #expect(await events.wait(timeout: 60) { if case .endOfStream = $0 { true } else { false } }, "the playlist did not end")
            player.stop()
            return (video.shown.map(\.md5), events)
        }

        private func started(_ events: EventLog) -> [Int] {
            events.all.compactMap { if case .itemStarted(let index, _) = $0 { index } else { nil } }
        }

        @Test(.timeLimit(.minutes(1))) func playsEveryFrameOfEachItemInOrder() async throws {
            let clips = try (0..<3).map(Self.clip)
            let reference = try clips.map { try referenceFrames($0).map(\.md5) }
            let (shown, events) = try await playToEnd(try #require(Playlist(clips)))
            #expect(shown == reference.flatMap { $0 }, "shown \(shown.count) frames, ffmpeg decodes \(reference.map(\.count))")
            #expect(started(events) == [0, 1, 2])
            #expect(events.count { if case .endOfStream = $0 { true } else { false } } == 1, "one end, after the last item")
        }

        @Test(.timeLimit(.minutes(1))) func loopsFilesAndTheListAsMpvCountsThem() async throws {
            let clips = try (0..<2).map(Self.clip)
            let reference = try clips.map { try referenceFrames($0).map(\.md5) }
            // --loop-file=1 --loop-playlist=2: a a b b, twice.
            let (shown, events) = try await playToEnd(try #require(Playlist(clips, loopFile: .times(1), loopPlaylist: .times(2))))
            let pass = reference[0] + reference[0] + reference[1] + reference[1]
            #expect(shown == pass + pass, "shown \(shown.count) frames, expected \(2 * pass.count)")
            #expect(started(events) == [0, 1, 0, 1], "a loop of the file seeks, the next item opens")
        }

        @Test(.timeLimit(.minutes(1))) func skipsAnItemThatCannotBeOpenedAndSaysWhy() async throws {
            let clips = try (0..<2).map(Self.clip)
            let missing = FileManager.default.temporaryDirectory.appendingPathComponent("reel-no-such-\(UUID().uuidString).mp4").path
            let reference = try clips.map { try referenceFrames($0).map(\.md5) }
            let (shown, events) = try await playToEnd(try #require(Playlist([clips[0], missing, clips[1]])))
            #expect(shown == reference[0] + reference[1])
            #expect(started(events) == [0, 2])
            let failures = events.all.compactMap { if case .itemFailed(let index, let url, let error) = $0 { (index, url, error.description) } else { nil } }
            #expect(failures.count == 1 && failures.first?.0 == 1 && failures.first?.1 == missing)
            #expect(failures.first?.2.contains("no such file") == true, "\(failures.first?.2 ?? "")")

            let player = Player.headless()
            await #expect(throws: PlaylistError.self) { try await player.open(try #require(Playlist([missing, missing + ".2"]))) }
            #expect(player.state == .failed)
        }

        @Test(.timeLimit(.minutes(1))) func movesOnAndBackAsTheKeysDo() async throws {
            let clips = try (0..<3).map(Self.clip)
            let firsts = try clips.map { try #require(referenceFrames($0).first?.md5) }
            let video = RecordingVideoOutput()
            let player = Player(videoOutput: { video }, audioOutput: { HeadlessAudioOutput() })
            let events = EventLog(player)
            try await player.open(try #require(Playlist(clips)))
            #expect(await events.wait { if case .firstFrame = $0 { true } else { false } })
            #expect(try await player.movePlaylist(by: -1) == false, "nothing before the first item")
            #expect(try await player.movePlaylist(by: 2))
            #expect(await events.wait { _ in video.shown.last?.md5 == firsts[2] }, "the third item's first frame")
            #expect(player.state == .ready, "paused stays paused")
            #expect(try await player.movePlaylist(by: 1) == false, "nothing after the last")
            player.play()
            #expect(try await player.movePlaylist(by: -1))
            #expect(await events.wait { _ in video.shown.contains { $0.md5 == firsts[1] } }, "the second item's first frame")
            #expect(await events.wait { _ in player.state == .playing }, "playing stays playing")
            #expect(player.playlist?.index == 1)
            player.stop()
            #expect(player.playlist == nil)
        }

        /// In real time: from the moment the last frame of an item has been on screen for
        /// its duration to the next item's first frame, at most 150 ms.
        @Test(.timeLimit(.minutes(1))) func theNextItemShowsWithin150ms() async throws {
            let clips = try (0..<3).map(Self.clip)
            let reference = try clips.map { try referenceFrames($0).map(\.md5) }
            let video = RecordingVideoOutput()
            let player = Player(videoOutput: { video }, audioOutput: { HeadlessAudioOutput() })
            let events = EventLog(player)
            try await player.open(try #require(Playlist(clips)))
            player.play()
            #expect(await events.wait(timeout: 20) { if case .endOfStream = $0 { true } else { false } })
            player.stop()
            let shown = video.shown
            for item in 1..<clips.count {
                let last = try #require(shown.last { reference[item - 1].contains($0.md5) })
                let first = try #require(shown.first { reference[item].contains($0.md5) })
                let gap = first.deviceTime - (last.deviceTime + 0.04)
                print("playlist gap before item \(item): \(Int((gap * 1000).rounded())) ms")
                #expect(gap <= 0.150, "item \(item) showed \(gap) s after the one before ended")
            }
        }
    }
}
