import Foundation
import Reel
import Testing

extension PlaybackTests {
    @Suite struct PlayerConfigurationTests {
        @Test(.timeLimit(.minutes(1)), arguments: [VideoDecoding.asynchronous, .synchronous])
        func untimedPlaybackPresentsEveryFrameFFmpegDecodes(_ decoding: VideoDecoding) async throws {
            let path = Fixtures.named("h264-main-bframes-aac.mov").path
            let reference = try referenceFrames(path)
            var configuration = Player.Configuration()
            configuration.untimed = true
            configuration.videoDecoding = decoding
            let video = RecordingVideoOutput()
            let player = Player(configuration: configuration, videoOutput: { video }, audioOutput: { HeadlessAudioOutput(untimed: true) })
            let events = EventLog(player)
            try await player.open(path)
            player.play()
            #expect(await events.wait(timeout: 20) { if case .endOfStream = $0 { true } else { false } })
            player.stop()
            #expect(video.shown.map(\.md5) == reference.map(\.md5), "\(decoding): \(video.count) frames, ffmpeg \(reference.count)")
        }

        @Test(.timeLimit(.minutes(1)), arguments: [ClockMaster.external, .video])
        func otherClocksPlayInRealTime(_ master: ClockMaster) async throws {
            var configuration = Player.Configuration()
            configuration.clockMaster = master
            let player = Player.headless(configuration: configuration)
            let events = EventLog(player)
            try await player.open(Fixtures.named("h264-baseline-aac.mp4").path)
            let start = Date()
            player.play()
            #expect(await events.wait(timeout: 10) { if case .endOfStream = $0 { true } else { false } })
            let elapsed = Date().timeIntervalSince(start)
            #expect(elapsed > 1.8 && elapsed < 2.6, "\(master) clock: 2 s took \(elapsed) s")
            #expect(player.statistics.framesShown >= 45, "\(player.statistics.framesShown) of 50 frames shown")
            player.stop()
        }

        @Test(.timeLimit(.minutes(1))) func switchingTheAudioTrackKeepsThePosition() async throws {
            let path = try Fixtures.made("two-audio-tracks.mkv", [
                "-i", Fixtures.named("h264-baseline-aac.mp4").path,
                "-f", "lavfi", "-i", "sine=frequency=880:sample_rate=44100:duration=2",
                "-map", "0:v", "-map", "0:a", "-map", "1:a", "-c:v", "copy", "-c:a", "flac",
                "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fra"])
            let player = Player.headless()
            let events = EventLog(player)
            try await player.open(path)
            #expect(player.mediaInfo?.streams.filter { $0.type == .audio }.count == 2)
            player.play()
            try await Task.sleep(for: .milliseconds(600))
            let before = player.currentTime ?? 0
            try await player.selectAudioTrack(2)
            #expect(player.state == .playing)
            #expect(abs((player.currentTime ?? 0) - before) < 0.3, "position \(before) → \(player.currentTime ?? -1)")
            #expect(await events.wait(timeout: 10) { if case .endOfStream = $0 { true } else { false } })
            player.stop()
        }
    }

    @Suite struct AudioRenderingTests {
        @Test(.timeLimit(.minutes(1)), arguments: [1.0, 2.0, 0.5])
        func speedKeepsThePitch(_ rate: Double) async throws {
            let path = try Fixtures.made("tone-440-4s.mka", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4", "-c:a", "flac"])
            let audio = HeadlessAudioOutput(keepSamples: true)
            let player = Player(videoOutput: { nil }, audioOutput: { audio })
            let events = EventLog(player)
            try await player.open(path)
            player.rate = rate
            player.play()
            try await Task.sleep(for: .milliseconds(1200))
            player.stop()
            let samples = audio.consumedSamples
            #expect(samples.count > 24_000)
            let measured = toneFrequency(samples.dropFirst(9_600).prefix(24_000), rate: 48_000)
            #expect(abs(measured - 440) < 8, "at \(rate)× the tone is \(measured) Hz")
            _ = events
        }

        @Test(.timeLimit(.minutes(1))) func mutingSilencesAndVolumeScales() async throws {
            let path = try Fixtures.made("tone-440-4s.mka", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4", "-c:a", "flac"])
            let audio = HeadlessAudioOutput(keepSamples: true)
            let player = Player(videoOutput: { nil }, audioOutput: { audio })
            try await player.open(path)
            player.play()
            try await Task.sleep(for: .milliseconds(500))
            let loud = audio.consumedSamples.suffix(4800).map(abs).max() ?? 0
            player.volume = 0.5
            try await Task.sleep(for: .milliseconds(300))
            let half = audio.consumedSamples.suffix(4800).map(abs).max() ?? 0
            player.muted = true
            try await Task.sleep(for: .milliseconds(300))
            let muted = audio.consumedSamples.suffix(4800).map(abs).max() ?? 1
            player.stop()
            #expect(loud > 0.05, "the tone (1/8 full scale, spread over two channels) is heard: \(loud)")
            #expect(abs(half / loud - 0.25) < 0.05, "volume 0.5 gives gain \(half / loud)")
            #expect(muted == 0)
        }
    }
}
