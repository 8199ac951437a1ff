import Foundation
import Reel
@testable import ReelPlayer
import Testing

extension PlaybackTests {
    /// Which engine plays an input (Reel's rules, the application's, a forced one), and the
    /// fallback from one engine to the other, at opening and while playing.
    @Suite(.serialized) struct EngineSelectionTests {
        /// A two-variant HLS ladder (320×240 and 160×120, 1 s segments, 3 s) made by
        /// ffmpeg's HLS muxer, served by nginx.
        static func ladder() throws -> (server: StaticWebServer, master: String) {
            let root = try Paths.temporaryDirectory()
            let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=3",
                                                    "-filter_complex", "[0:v]split=2[a][b];[b]scale=160:120[small]",
                                                    "-map", "[a]", "-map", "[small]", "-c:v", "libx264", "-g", "25", "-b:v:0", "600k", "-b:v:1", "150k",
                                                    "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
                                                    "-master_pl_name", "master.m3u8", "-var_stream_map", "v:0 v:1",
                                                    root.appendingPathComponent("v%v/index.m3u8").path])
            #expect(made.status == 0, "\(made.stderr)")
            let server = try StaticWebServer(root: root, logsRequests: true)
            return (server, server.url("master.m3u8"))
        }

        private func makePlayer(_ selection: EngineSelection, video: RecordingVideoOutput) -> Player {
            var configuration = Player.Configuration()
            configuration.engine = selection
            return Player(configuration: configuration, videoOutput: { video }, audioOutput: { HeadlessAudioOutput() })
        }

        private func decisions(_ events: EventLog) -> [EngineDecision] {
            events.all.compactMap { if case .engineChosen(let decision) = $0 { decision } else { nil } }
        }

        private func fallbacks(_ events: EventLog) -> [(PlaybackEngineKind, PlaybackEngineKind, String)] {
            events.all.compactMap { if case .engineFallback(let from, let to, let reason) = $0 { (from, to, reason) } else { nil } }
        }

        /// An HLS master playlist with two variants goes to GStreamer, which plays it;
        /// `reel probe` says so and why; a single file goes to FFmpeg.
        @Test(.timeLimit(.minutes(1))) func anAdaptiveLadderGoesToGStreamerAndAFileToFFmpeg() async throws {
            let (server, master) = try Self.ladder()
            defer { server.stop() }
            let video = RecordingVideoOutput()
            let player = makePlayer(.automatic, video: video)
            let events = EventLog(player)
            do {
                try await player.open(master)
            } catch {
                // A loaded hunt once saw a 404 here: say what nginx served and held.
                let held = FileManager.default.enumerator(atPath: server.root.path)?.allObjects ?? []
                Issue.record("\(error); nginx served \((try? server.requests())?.map(\.path) ?? []); its root holds \(held)")
                return
            }
            player.play()
            #expect(await events.wait(timeout: 20) { if case .endOfStream = $0 { true } else { false } })
            player.stop()
            #expect(decisions(events).map(\.engine) == [.gstreamer], "\(decisions(events))")
            #expect(player.statistics.engine == .gstreamer)
            #expect(video.shown.count >= 70, "\(video.shown.count) of 75 pictures shown")
            let probe = try reel("probe", master, timeout: 20)
            #expect(probe.stdout.contains("Engine (--engine auto): gstreamer: an HLS master playlist with 2 variants"), "\(probe.stdout)")
            let file = try reel("probe", try Fixtures.seekable(), timeout: 20)
            #expect(file.stdout.contains("Engine (--engine auto): ffmpeg"), "\(file.stdout)")
        }

        /// Cinepak in Matroska: FFmpeg decodes it, GStreamer has no plug-in for it. Chosen
        /// for GStreamer by the application's rule, it falls back to FFmpeg, which plays
        /// every picture as ffmpeg decodes it; forced to GStreamer, it fails in one line.
        @Test(.timeLimit(.minutes(1))) func anInputOneEngineLacksThePartsForGoesToTheOther() async throws {
            let clip = try Fixtures.made("cinepak-1s.mkv", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=1", "-c:v", "cinepak"])
            let video = RecordingVideoOutput()
            let player = makePlayer(.custom { _ in .gstreamer }, video: video)
            let events = EventLog(player)
            try await player.open(clip)
            player.play()
            #expect(await events.wait(timeout: 20) { if case .endOfStream = $0 { true } else { false } })
            player.stop()
            let fallback = fallbacks(events)
            #expect(fallback.count == 1 && fallback.first?.0 == .gstreamer && fallback.first?.1 == .ffmpeg
                    && fallback.first?.2.contains("no GStreamer plug-in") == true, "\(fallback)")
            let reference = try referenceFrames(clip)
            #expect(video.shown.map(\.md5) == reference.map(\.md5), "\(video.shown.count) shown, \(reference.count) decoded by ffmpeg")

            let forced = try reel("play", "--headless", "--engine", "gstreamer", clip, timeout: 20)
            #expect(forced.status == 1 && forced.stderr.hasPrefix("reel: cannot open '\(clip)': no installed demuxer or decoder reads it"), "\(forced.stderr)")
        }

        /// FFmpeg's decoding fails at 1 s (injected): the input is opened again in GStreamer at
        /// the picture on screen and plays to its end, every picture ffmpeg's; when the other
        /// engine fails too, playback ends with its error, once, after one fallback.
        @Test(.timeLimit(.minutes(1))) func aDecodingFailureWhilePlayingReopensTheInputInTheOtherEngine() async throws {
            let clip = try Fixtures.seekable()
            let reference = try referenceFrames(clip)
            let video = RecordingVideoOutput()
            let player = FailingEngine.player(configuration: Player.Configuration(), video: video) { engine, time in
                engine == .ffmpeg && time >= 1 ? DecodeError(.other, detail: "injected at \(time) s") : nil
            }
            let events = EventLog(player)
            try await player.open(clip, startingAt: 0)
            player.play()
            #expect(await events.wait(timeout: 30) { if case .endOfStream = $0 { true } else { false } }, "\(events.all.suffix(5))")
            player.stop()
            let fallback = fallbacks(events)
            #expect(fallback.count == 1 && fallback.first?.0 == .ffmpeg && fallback.first?.1 == .gstreamer
                    && fallback.first?.2.contains("injected") == true, "\(fallback)")
            let shown = video.shown
            // GStreamer gives the picture an exact seek lands in the seek's time (its start
            // clipped to the segment): a picture is the one whose 40 ms its time falls in.
            let frame = { (time: Double) in Int((time * 25 + 1e-6).rounded(.down)) }
            let expected = Dictionary(reference.map { (frame($0.pts), $0.md5) }, uniquingKeysWith: { first, _ in first })
            let wrong = shown.filter { expected[frame($0.pts)] != $0.md5 }
            #expect(wrong.isEmpty, "\(wrong.count) pictures differ from ffmpeg's at their times")
            let times = shown.map(\.pts)
            #expect(times.first == 0 && times.last.map { $0 > 9.9 } == true && zip(times, times.dropFirst()).allSatisfy { $1 - $0 < 0.2 },
                    "no gap: \(times.count) pictures, the largest step \(zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0) s")

            let failing = FailingEngine.player(configuration: Player.Configuration(), video: RecordingVideoOutput()) { engine, time in
                time >= 1 ? DecodeError(.other, detail: "\(engine.rawValue) fails at \(time) s") : nil
            }
            let failures = EventLog(failing)
            try await failing.open(clip)
            failing.play()
            // The player is failed once the last error is out: no later one can follow.
            #expect(await failures.wait(timeout: 30) { isState(.failed)($0) })
            failing.stop()
            let errors = failures.all.compactMap { if case .error(let error) = $0 { error.description } else { nil } }
            #expect(fallbacks(failures).count == 1 && errors.count == 1 && errors.first?.contains("gstreamer fails") == true, "\(errors)")
        }

        /// GStreamer's hardware decoders are listed as its registry has them (gst-inspect-1.0
        /// says which of VA-API's and NVDEC's H.264 decoders exist), and the engine decodes
        /// with one where there is one, in software where there is none (this machine), and
        /// says which in its statistics and in `reel probe`.
        @Test(.timeLimit(.minutes(1))) func hardwareDecodersAreUsedWhereGStreamerHasThemAndReportedAbsentWhereNot() async throws {
            let hardware = GStreamer.hardwareVideoDecoders()
            for name in ["vah264dec", "nvh264dec", "v4l2h264dec"] {
                let present = try Processes.run("gst-inspect-1.0", [name]).status == 0
                #expect(hardware.contains(name) == present, "\(name): gst-inspect-1.0 says \(present), Reel's list \(hardware)")
            }
            let player = makePlayer(.gstreamer, video: RecordingVideoOutput())
            try await player.open(try Fixtures.seekable())
            let decoder = try #require(player.statistics.videoDecoder)
            player.stop()
            if hardware.isEmpty {
                #expect(decoder == "avdec_h264")
            } else {
                #expect(decoder.hasSuffix("(hardware)"), "\(decoder), with \(hardware) in the registry")
            }
            let probe = try reel("probe", try Fixtures.seekable(), timeout: 20)
            let line = probe.stdout.split(separator: "\n").first { $0.hasPrefix("GStreamer's hardware video decoders: ") }
            #expect(line.map { hardware.isEmpty ? $0.contains("none") : $0.contains(hardware[0]) } == true, "\(probe.stdout)")
            print("GStreamer's hardware video decoders: \(hardware.isEmpty ? "none" : hardware.joined(separator: ", ")); the engine decoded H.264 with \(decoder)")
        }
    }
}
