import Foundation
import Reel
import Testing

@Suite struct PlayerConfigurationTests {
    @Test(.timeLimit(.minutes(1)), arguments: [VideoDecoding.asynchronous, .synchronous])
    func untimedPlaybackPresentsEveryFrameFFmpegDecodes(_ decoding: VideoDecoding) async throws {
        let path = Fixtures.named("h264-main-bframes-aac.mov").path
        let reference = try referenceFrames(path)
        var configuration = PlayerConfiguration()
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
        var configuration = PlayerConfiguration()
        configuration.clockMaster = master
        let player = Player.headless(configuration: configuration)
        let events = EventLog(player)
        try await player.open(Fixtures.named("h264-baseline-aac.mp4").path)
        let start = Date()
        player.play()
        #expect(await events.wait(timeout: 10) { if case .endOfStream = $0 { true } else { false } })
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed > 1.8 && elapsed < 2.6, "\(master) clock: 2 s took \(elapsed) s")
        #expect(player.statistics.framesShown >= 48)
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
