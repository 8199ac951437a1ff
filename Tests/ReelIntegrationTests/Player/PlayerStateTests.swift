import Foundation
import Reel
import Testing

extension PlaybackTests {
    @Suite struct PlayerStateTests {
        private func headlessPlayer(untimed: Bool = false, engine: PlaybackEngineKind = .ffmpeg) -> (Player, RecordingVideoOutput) {
            var configuration = Player.Configuration()
            configuration.untimed = untimed
            configuration.engine = .only(engine)
            let video = RecordingVideoOutput()
            let player = Player(configuration: configuration, videoOutput: { video }, audioOutput: { HeadlessAudioOutput(untimed: untimed) })
            return (player, video)
        }

        @Test(.timeLimit(.minutes(1)), arguments: PlaybackEngineKind.allCases)
        func goesThroughEveryStateOfANormalPlayback(engine: PlaybackEngineKind) async throws {
            let (player, video) = headlessPlayer(engine: engine)
            let events = EventLog(player)
            #expect(player.state == .idle)
            try await player.open(Fixtures.named("h264-baseline-aac.mp4").path)
            #expect(player.state == .ready)
            #expect(player.duration.map { abs($0 - 2) < 0.1 } == true)
            #expect(await events.wait { if case .firstFrame = $0 { true } else { false } }, "first frame shown while ready")
            player.play()
            #expect(player.state == .playing)
            try await Task.sleep(for: .milliseconds(300))
            player.pause()
            #expect(player.state == .paused)
            let pausedAt = player.currentTime ?? -1
            try await Task.sleep(for: .milliseconds(300))
            #expect(abs((player.currentTime ?? 0) - pausedAt) < 0.02, "time stands still while paused")
            player.play()
            #expect(await events.wait(timeout: 10) { if case .endOfStream = $0 { true } else { false } })
            #expect(await events.wait { isState(.ended)($0) })
            #expect(player.state == .ended)
            #expect(video.count >= 48)
            #expect(events.count { if case .time = $0 { true } else { false } } >= 4, "time updates while playing")
            player.stop()
            #expect(player.state == .idle)
            #expect(await events.wait { isState(.idle)($0) })
            #expect(events.states == [.opening, .ready, .playing, .paused, .playing, .ended, .idle])
            let latency = events.all.compactMap { if case .firstFrame(let latency) = $0 { latency } else { nil } }.first
            #expect(latency.map { $0 < 1 } == true)
        }

        @Test(.timeLimit(.minutes(1)), arguments: PlaybackEngineKind.allCases)
        func thePositionStandsStillUntilPlayIsPressed(engine: PlaybackEngineKind) async throws {
            let (player, _) = headlessPlayer(engine: engine)
            let events = EventLog(player)
            try await player.open(Fixtures.named("h264-baseline-aac.mp4").path, startingAt: 0.5)
            #expect(await events.wait { if case .firstFrame = $0 { true } else { false } })
            let opened = player.currentTime ?? -1
            try await Task.sleep(for: .milliseconds(500))
            #expect(abs(opened - 0.5) < 0.05 && player.currentTime == opened, "\(opened) → \(player.currentTime ?? -1) while nobody pressed play")
            player.stop()
        }

        /// A frame-threaded decoder holds a packet per thread before its first frame comes
        /// out; while paused nothing drains the audio, so the reader must not wait on a full
        /// audio queue before the video decoder has what it needs for the frame at the start.
        @Test(.timeLimit(.minutes(1)), arguments: [1, 16])
        func pausedAtAStartTimeTheFrameThereIsShownWhateverTheDecoderThreads(threads: Int) async throws {
            var configuration = Player.Configuration()
            configuration.decoder = DecoderOptions(threadCount: threads)
            let video = RecordingVideoOutput()
            let player = Player(configuration: configuration, videoOutput: { video }, audioOutput: { HeadlessAudioOutput() })
            let events = EventLog(player)
            try await player.open(Fixtures.seekable(), startingAt: 3.2)
            #expect(await events.wait(timeout: 10) { if case .firstFrame = $0 { true } else { false } }, "no frame while paused at 3.2 s")
            #expect(video.shown.first.map { abs($0.pts - 3.2) < 0.001 } == true, "shown: \(video.shown.map(\.pts))")
            player.stop()
        }

        @Test(.timeLimit(.minutes(1)), arguments: PlaybackEngineKind.allCases)
        func playingAgainAfterTheEndStartsOver(engine: PlaybackEngineKind) async throws {
            let (player, _) = headlessPlayer(untimed: true, engine: engine)
            let events = EventLog(player)
            try await player.open(Fixtures.named("h264-baseline-aac.mp4").path)
            player.play()
            #expect(await events.wait { isState(.ended)($0) })
            player.play()
            #expect(player.state == .playing)
            #expect(await events.wait { _ in events.count(where: { if case .endOfStream = $0 { true } else { false } }) >= 2 })
            player.stop()
        }

        /// An untimed device pulls again as soon as a pull returns; with nothing left to
        /// play it must wait between pulls, not spin (each pull also takes the playback's lock).
        @Test(.timeLimit(.minutes(1))) func anUntimedDeviceDoesNotSpinAfterTheEnd() async throws {
            let audio = HeadlessAudioOutput(untimed: true)
            var configuration = Player.Configuration()
            configuration.untimed = true
            let player = Player.headless(configuration: configuration, audio: audio)
            let events = EventLog(player)
            try await player.open(Fixtures.named("h264-baseline-aac.mp4").path)
            player.play()
            #expect(await events.wait { isState(.ended)($0) })
            let atEnd = audio.pullLog.count
            try await Task.sleep(for: .milliseconds(500))
            let idlePulls = audio.pullLog.count - atEnd
            #expect(idlePulls < 500, "\(idlePulls) pulls in 0.5 s after the end")
            player.stop()
        }

        /// A snapshot is written beside playback, not by the presenting thread: here its
        /// file is a FIFO nobody reads yet, so writing it blocks until the test reads it.
        @Test(.timeLimit(.minutes(1))) func aSnapshotBeingWrittenDoesNotHoldUpPresentation() async throws {
            let fifo = try Paths.temporaryDirectory().appendingPathComponent("snapshot.png").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let video = HeadlessVideoOutput()
            video.snapshot(at: 0.5, to: fifo)
            let player = Player.headless(video: video)
            let events = EventLog(player)
            try await player.open(Fixtures.named("h264-baseline-aac.mp4").path)
            player.play()
            #expect(await events.wait { if case .endOfStream = $0 { true } else { false } }, "playback went on to the end")
            #expect(video.presentations.count >= 48)
            // The writer is waiting in open(2) for a reader by now: this read returns at once.
            let reader = try #require(FileHandle(forReadingAtPath: fifo))
            let written = reader.readDataToEndOfFile()
            try reader.close()
            #expect(written.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG came through the FIFO (\(written.count) bytes)")
            player.stop()
            #expect(video.errors.isEmpty, "\(video.errors)")
        }

        @Test(.timeLimit(.minutes(1))) func rateVolumeAndMuteAreKeptInRange() async throws {
            let (player, _) = headlessPlayer()
            try await player.open(Fixtures.named("h264-baseline-aac.mp4").path)
            player.rate = 3
            #expect(player.rate == 2)
            player.rate = 0.1
            #expect(player.rate == 0.5)
            player.volume = 1.5
            #expect(player.volume == 1)
            player.muted = true
            #expect(player.muted)
            player.stop()
        }

        @Test(.timeLimit(.minutes(1)), arguments: PlaybackEngineKind.allCases)
        func doubleSpeedPlaysTwiceAsFast(engine: PlaybackEngineKind) async throws {
            let (player, _) = headlessPlayer(engine: engine)
            let events = EventLog(player)
            // 2 s of media: 1 s at 2×, at least 1.96 s at 1×; the rest of the bound is for a loaded
            // machine's start (a 1 s clip left it 0.4 s).
            try await player.open(Fixtures.named("h264-baseline-aac.mp4").path)
            player.rate = 2
            let start = Date()
            player.play()
            #expect(await events.wait { if case .endOfStream = $0 { true } else { false } })
            let elapsed = Date().timeIntervalSince(start)
            print("2 s of media at 2× through \(engine): \(elapsed) s")
            #expect(elapsed > 0.9 && elapsed < 1.7, "2 s of media at 2× took \(elapsed) s")
            player.stop()
        }

        @Test(.timeLimit(.minutes(1))) func badInputsEndInTheFailedStateWithAnError() async throws {
            for input in ["/nonexistent.mp4", "nosuchproto://x"] {
                let (player, _) = headlessPlayer()
                let events = EventLog(player)
                await #expect(throws: (any Error).self) { try await player.open(input) }
                #expect(player.state == .failed)
                #expect(await events.wait { if case .error(let error) = $0 { error.description.contains("cannot open") } else { false } })
            }
        }

        @Test(.timeLimit(.minutes(1))) func aTruncatedFileEndsInAnErrorEvent() async throws {
            let data = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.faststartMP4()))
            let path = try Paths.temporaryDirectory().appendingPathComponent("cut.mp4").path
            try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
            let (player, _) = headlessPlayer(untimed: true)
            let events = EventLog(player)
            try await player.open(path)
            player.play()
            #expect(await events.wait { if case .error(let error) = $0 { error.description.contains("truncated") } else { false } })
            #expect(await events.wait { isState(.failed)($0) })
            player.stop()
        }

        @Test(.timeLimit(.minutes(1))) func framePoolStopsAllocatingAfterWarmUp() async throws {
            let (player, _) = headlessPlayer(untimed: true)
            let events = EventLog(player)
            let ends = { events.count { if case .endOfStream = $0 { true } else { false } } }
            try await player.open(try Fixtures.seekable())
            player.play()
            #expect(await events.wait(timeout: 30) { _ in ends() >= 1 })
            // Warm-up: two passes, so the most frames ever in flight at once has happened.
            player.play()
            #expect(await events.wait(timeout: 30) { _ in ends() >= 2 })
            let warm = player.statistics.framesAllocated
            // Three more passes over the whole clip: every frame from the pool.
            for pass in 3...5 {
                player.play()
                #expect(await events.wait(timeout: 30) { _ in ends() >= pass })
            }
            let end = player.statistics
            #expect(warm > 0)
            #expect(end.framesShown >= 1200, "five passes of 250 frames, \(end.framesShown) shown")
            #expect(end.framesAllocated == warm, "allocated \(warm) frames in two passes, \(end.framesAllocated) after five")
            player.stop()
        }

        @Test(.timeLimit(.minutes(2))) func aThousandRandomCallsNeitherDeadlockNorCrash() async throws {
            let (player, _) = headlessPlayer()
            let path = try Fixtures.seekable()
            try await player.open(path)
            var generator = SeededGenerator(seed: 2026)
            for step in 0..<1000 {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0, 1: player.play()
                case 2, 3: player.pause()
                case 4, 5: player.seek(to: Double.random(in: 0...10, using: &generator), mode: Bool.random(using: &generator) ? .exact : .keyframe)
                case 6: player.rate = Double.random(in: 0.5...2, using: &generator)
                case 7: player.volume = Double.random(in: 0...1, using: &generator)
                case 8 where step % 50 == 0:
                    player.stop()
                    try await player.open(path)
                default: _ = (player.currentTime, player.bufferedTime, player.statistics)
                }
                if step % 100 == 0 { try await Task.sleep(for: .milliseconds(20)) }
            }
            // Still alive and responsive.
            try await player.open(path)
            player.seek(to: 5, mode: .exact)
            player.play()
            #expect(await waitForPosition(player, 5.04), "\(String(describing: player.currentTime))")
            #expect(player.state == .playing)
            player.stop()
        }
    }
}
