import Foundation
import Reel
import Testing

extension LightPlaybackTests {
    /// `reel play` from the command line, headless.
    @Suite struct PlayCommandTests {
        @Test(.timeLimit(.minutes(1)), arguments: PlaybackEngineKind.allCases)
        func headlessPlaybackWritesSnapshotsAndAReport(engine: PlaybackEngineKind) throws {
            let clip = try Fixtures.seekable()
            let directory = try Paths.temporaryDirectory()
            let snapshot = directory.appendingPathComponent("at2.png").path
            let result = try reel("play", "--headless", "--stats", "--start", "1", "--duration", "2",
                                  "--snapshot", "2:\(snapshot)", "--engine", engine.rawValue, clip, timeout: 30)
            #expect(result.status == 0, "\(result.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let statistics = report?["statistics"] as? [String: Any]
            let shown = statistics?["frames_shown"] as? Int ?? 0
            #expect((48...53).contains(shown), "2 s at 25 fps, \(shown) frames shown")
            #expect((statistics?["position"] as? Double).map { $0 >= 2.9 && $0 < 3.3 } == true)
            #expect(result.stderr.contains("shown"), "a live status line")

            // The snapshot is the frame ffmpeg decodes at 2 s.
            let reference = directory.appendingPathComponent("reference.png").path
            _ = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-ss", "2", "-i", clip, "-frames:v", "1", "-vf",
                                             "scale=flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgb24", reference])
            let compare = try Processes.run("ffmpeg", ["-v", "info", "-nostdin", "-i", snapshot, "-i", reference, "-lavfi", "psnr", "-f", "null", "-"])
            let psnr = compare.stderr.range(of: "average:").map { compare.stderr[$0.upperBound...].prefix { !$0.isWhitespace } }
            #expect(psnr.map { $0 == "inf" || (Double($0) ?? 0) >= 35 } == true, "snapshot PSNR \(psnr ?? "none")")
        }

        /// `--audio-out` writes what the device would have played: after the silence of the
        /// pulls that came before the first sound, ffmpeg's own decode of the file, sample
        /// for sample; an unwritable path is one clear line and exit 1.
        @Test(.timeLimit(.minutes(1)), arguments: PlaybackEngineKind.allCases)
        func audioOutWritesTheSoundAsFFmpegDecodesIt(engine: PlaybackEngineKind) throws {
            let directory = try Paths.temporaryDirectory()
            let clip = directory.appendingPathComponent("tone.mp4").path
            _ = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=2",
                                             "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2", "-ac", "2",
                                             "-c:v", "libx264", "-c:a", "aac", "-shortest", clip])
            let wav = directory.appendingPathComponent("heard.wav").path
            let played = try reel("play", "--headless", "--audio-out", wav, "--engine", engine.rawValue, clip, timeout: 30)
            #expect(played.status == 0, "\(played.stderr)")
            let probe = try Processes.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels", "-of", "csv=p=0", wav])
            #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "pcm_f32le,48000,2")
            let raw = directory.appendingPathComponent("reference.f32").path
            _ = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", clip, "-map", "0:a", "-f", "f32le", "-ar", "48000", "-ac", "2", raw])
            let expected = try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let heard = try Data(contentsOf: URL(fileURLWithPath: wav)).dropFirst(58).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let firstSound = try #require(heard.firstIndex { $0 != 0 })
            let aligned = firstSound - firstSound % 2
            #expect(aligned <= 48000 / 10 * 2, "\(aligned / 2) samples of silence before the sound")
            // GStreamer's MP4 demuxer leaves out the last AAC frame (1,024 samples a channel),
            // which lies past the stream's 2 s; everything before it must be the same.
            let missing = engine == .gstreamer ? 2 * 1024 : 0
            #expect(heard.count >= aligned + expected.count - missing, "\(heard.count - aligned) samples heard of \(expected.count)")
            let difference = zip(heard[aligned...], expected.dropLast(missing)).map { abs($0 - $1) }.max() ?? 1
            #expect(difference == 0, "largest difference from ffmpeg's decode: \(difference)")

            let refused = try reel("play", "--headless", "--audio-out", "/nonexistent/dir/heard.wav", clip, timeout: 30)
            #expect(refused.status == 1 && refused.stderr.contains("reel: --audio-out: cannot write /nonexistent/dir/heard.wav: No such file or directory"), "\(refused.stderr)")
        }

        /// Ctrl-C or a TERM ends playback as `q` does: the report is printed, exit 0. The
        /// signal comes a second after the first status line (0.5 s into the 10 s clip): a
        /// loaded machine's start took 1.7 s, so one sent 2 s after the start found 0.32 s.
        @Test(.timeLimit(.minutes(1)), arguments: [SIGINT, SIGTERM])
        func aSignalEndsPlaybackWithItsReport(signal: Int32) throws {
            let result = try reel("play", "--headless", "--stats", try Fixtures.seekable(), timeout: 30,
                                  signal: ProcessSignal(signal, after: 1, onceOutputHas: " shown "))
            #expect(result.status == 0 && !result.timedOut, "exit \(result.status): \(result.stderr)")
            let signalled = try #require(result.signalledAt, "no status line: \(result.stderr)")
            #expect(result.seconds - signalled < 3, "ended \(result.seconds - signalled) s after the signal")
            let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let position = (report?["statistics"] as? [String: Any])?["position"] as? Double
            #expect(position.map { $0 > 0.45 && $0 < 4 } == true, "position \(String(describing: position)), signalled 1 s after a status line")
        }

        /// Opened paused, the reported position stays on the opening frame while the wall
        /// clock runs (it used to advance with it, over a frame that did not move).
        @Test(.timeLimit(.minutes(1))) func pausedAtOpenThePositionStandsStill() throws {
            let result = try reel("play", "--headless", "--stats", "--pause", "--start", "3", try Fixtures.seekable(),
                                  timeout: 30, signal: ProcessSignal(SIGINT, after: 2, onceOutputHas: " shown "))
            #expect(result.status == 0, "\(result.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let statistics = report?["statistics"] as? [String: Any]
            let position = statistics?["position"] as? Double
            #expect(position.map { abs($0 - 3) < 0.05 } == true, "position \(String(describing: position)) after 2 s paused at 3 s")
            #expect(statistics?["frames_shown"] as? Int == 1)
        }

        /// --no-video plays the audio alone (no frame shown); --no-audio the video alone, on
        /// its own clock (no A-V offset); an A-B loop given on the command line keeps the
        /// position between its points.
        @Test(.timeLimit(.minutes(1))) func audioOrVideoAloneAndAnABLoop() throws {
            let clip = try Fixtures.seekable()
            func statistics(_ arguments: [String]) throws -> [String: Any] {
                let result = try Processes.run(Paths.reel, ["play", "--headless", "--stats"] + arguments + [clip], timeout: 30)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                return report?["statistics"] as? [String: Any] ?? [:]
            }
            let audioOnly = try statistics(["--no-video", "--duration", "1"])
            #expect(audioOnly["frames_shown"] as? Int == 0)
            #expect((audioOnly["position"] as? Double).map { $0 >= 0.95 && $0 < 1.2 } == true, "\(audioOnly)")
            let videoOnly = try statistics(["--no-audio", "--duration", "1"])
            #expect((videoOnly["frames_shown"] as? Int).map { (24...27).contains($0) } == true, "\(videoOnly)")
            #expect(videoOnly["av_offset"] == nil, "no audio clock to be offset from")
            // 90 frames at 25 fps, the last at 3.56 s without a loop; each time back to A shows
            // again the 14 frames from the one on screen at 0.5 s (0.48) to B's (1.00), 0.56 s:
            // three loops end at 1.88 s, past B (one more or fewer is 0.56 s away; a loop for ever
            // ends between A and B). A frame dropped late moves the end 40 ms on.
            let looped = try statistics(["--ab-loop-a", "0.5", "--ab-loop-b", "1", "--ab-loop-count", "3", "--frames", "90"])
            let shown = looped["frames_shown"] as? Int ?? 0, dropped = looped["frames_dropped"] as? Int ?? 0
            #expect((90...91).contains(shown), "\(looped)")
            let lastFrame = 0.04 * Double(shown + dropped - 1) - 3 * 0.56
            #expect((looped["position"] as? Double).map { abs($0 - lastFrame) < 0.1 } == true, "\(looped), the last frame at \(lastFrame) s")
            let endless = try statistics(["--ab-loop-a", "0.5", "--ab-loop-b", "1", "--frames", "90"])
            #expect((endless["position"] as? Double).map { $0 >= 0.5 && $0 < 1.05 } == true, "played on in the loop: \(endless)")
        }

        @Test func badInputFailsInOneLine() throws {
            let result = try reel("play", "--headless", "/nonexistent/clip.mp4")
            #expect(result.status == 1)
            #expect(result.stderr == "reel: cannot open '/nonexistent/clip.mp4': no such file or directory\n")
        }

        /// Each engine fails on the same bad inputs with the same line (up to its library's
        /// own words in brackets) and exit status: a missing file, noise, an empty file,
        /// nothing listening, a server that never answers.
        @Test(.timeLimit(.minutes(1))) func badInputFailsAlikeThroughEitherEngine() throws {
            let directory = try Paths.temporaryDirectory()
            let noise = directory.appendingPathComponent("noise.mp4")
            // Seeded: bytes drawn anew each run once passed GStreamer's typefind for H.263 video.
            var generator = SeededGenerator(seed: 42)
            try Data((0..<65536).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: noise)
            let empty = directory.appendingPathComponent("empty.mp4")
            try Data().write(to: empty)
            let silent = try SilentServer()
            defer { silent.stop() }
            let refused = try SilentServer()
            refused.stop()
            let cases: [(input: String, line: String)] = [
                ("/nonexistent/clip.mp4", "no such file or directory"),
                (noise.path, "not a media file Reel can read, or the data is damaged"),
                (empty.path, "the input is empty"),
                ("http://127.0.0.1:\(refused.port)/clip.mp4", "connection refused (nothing is listening there)"),
                ("http://127.0.0.1:\(silent.port)/clip.mp4", "no answer within 2 s"),
            ]
            for (input, line) in cases {
                for engine in PlaybackEngineKind.allCases {
                    let started = Date()
                    let result = try reel("play", "--headless", "--timeout", "2", "--engine", engine.rawValue, input, timeout: 20)
                    let lines = result.stderr.split(separator: "\n")
                    #expect(result.status == 1 && lines.count == 1 && lines[0].hasPrefix("reel: cannot open '\(input)': \(line)"),
                            "\(engine) on \(input): exit \(result.status), \(result.stderr)")
                    // Without --timeout 2 the silent server would be waited on for the default
                    // 15 s: 14 s still tells the two apart, and leaves room for a loaded machine's
                    // start and teardown (hunt runs saw 8.1 and 10.4 s through GStreamer, against
                    // 2.1 to 2.5 s in 36 tries beside up to five busy loops: a stall not found).
                    let seconds = Date().timeIntervalSince(started)
                    #expect(seconds < 14, "\(engine) on \(input) took \(seconds) s")
                }
            }
        }

        @Test func optionsAreValidated() throws {
            let result = try reel("play", "--headless", "--rate", "3", "x.mp4")
            #expect(result.status != 0)
            #expect(result.stderr.contains("--rate"))
            // 360° and VR options say what they take.
            for (arguments, message) in [(["--projection", "cube"], "--projection must be one of equirect, hequirect, c3x2, c6x1, eac, dfisheye, flat"),
                                         (["--projection", "c3x2", "--cube-rotations", "0123"], "invalid cube face rotations '0123'"),
                                         (["--projection", "dfisheye", "--lens-fov", "400"], "--lens-fov must be above 0 and at most 360"),
                                         (["--vr-preset", "daydream"], "--vr-preset must be cardboard-v1 or cardboard-v2"),
                                         (["--no-audio", "--no-video"], "--no-audio and --no-video leave nothing to play"),
                                         (["--ab-loop-a", "2"], "--ab-loop-a and --ab-loop-b go together"),
                                         (["--ab-loop-a", "2", "--ab-loop-b", "1"], "--ab-loop-b must be after --ab-loop-a"),
                                         (["--ab-loop-count", "2x"], "--ab-loop-count takes a number of loops from 0, or inf"),
                                         (["--frames", "0"], "--frames takes a number of frames from 1"),
                                         (["--frames", "5", "--no-video"], "--frames counts video frames"),
                                         (["--vr-k1", "20"], "--vr-k1 must be between -10 and 10"),
                                         (["--vr-chroma", "1:1"], "--vr-chroma takes three scales"),
                                         (["--vr-ipd", "130"], "--vr-ipd must be above 0 and at most --vr-screen-width"),
                                         (["--view-size", "1x1"], "--view-size takes WxH"),
                                         (["--demuxer-readahead-secs", "0"], "--demuxer-readahead-secs takes seconds above 0, up to 3600")] {
                let invalid = try Processes.run(Paths.reel, ["play", "--headless"] + arguments + ["x.mp4"])
                #expect(invalid.status != 0 && invalid.stderr.contains(message), "\(arguments): \(invalid.stderr)")
            }
        }
    }
}
