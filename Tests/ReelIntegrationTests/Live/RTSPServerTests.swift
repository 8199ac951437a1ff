import Foundation
import Testing

extension PlaybackTests {
    /// RTSP against a real server (gst-rtsp-server, started here on loopback): RTP over UDP
    /// and interleaved in TCP, and digest authentication; the pictures against ffmpeg's decode
    /// of the file the server sends.
    @Suite(.serialized) struct RTSPServerTests {
        /// The server's script beside this file, serving `file` on `port` (open) and `port + 1`
        /// (digest: viewer / s3cr@t).
        final class Server {
            let port: Int
            private let process: BackgroundProcess

            init(serving file: String) throws {
                let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("Support/rtsp-server.py").path
                let directory = try Paths.temporaryDirectory()
                let log = directory.appendingPathComponent("rtsp-server.log").path
                for attempt in 0..<5 {
                    let port = Int.random(in: 20_000..<40_000) & ~1
                    let process = try BackgroundProcess("/usr/bin/python3", [script, String(port), file, "viewer", "s3cr@t"], outputPath: log + ".\(attempt)")
                    for _ in 0..<100 where process.isRunning {
                        if (try? String(contentsOfFile: log + ".\(attempt)", encoding: .utf8))?.contains("ready") == true {
                            self.port = port
                            self.process = process
                            return
                        }
                        Thread.sleep(forTimeInterval: 0.05)
                    }
                    process.stop()
                }
                throw TestSetupError("the RTSP server did not start: \((try? String(contentsOfFile: log + ".4", encoding: .utf8)) ?? "")")
            }

            var open: String { "rtsp://127.0.0.1:\(port)/clip" }
            var secured: String { "rtsp://127.0.0.1:\(port + 1)/clip" }

            func stop() { process.stop() }
        }

        static func clip() throws -> String {
            try Fixtures.made("rtsp-clip-2s.mp4", [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2",
                "-c:v", "libx264", "-g", "25", "-bf", "2", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        }

        private func hashes(_ framemd5: String) -> [Substring] {
            framemd5.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last?.drop { $0 == " " } }
        }

        @Test(.timeLimit(.minutes(2))) func everyPictureArrivesOverTCPAsFFmpegDecodesTheFile() throws {
            let file = try Self.clip()
            let server = try Server(serving: file)
            defer { server.stop() }
            let expected = hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]).stdout)
            let received = try reel("decode", "--framemd5", "--rtsp-transport", "tcp", server.open, timeout: 60)
            #expect(received.status == 0, "\(received.stderr)")
            #expect(hashes(received.stdout) == expected, "\(hashes(received.stdout).count) pictures received of \(expected.count)")
        }

        @Test(.timeLimit(.minutes(2))) func playsOverUDPAndProbesBothStreams() throws {
            let server = try Server(serving: try Self.clip())
            defer { server.stop() }
            let probe = try reel("probe", "--json", "--rtsp-transport", "udp", server.open, timeout: 60)
            #expect(probe.status == 0, "\(probe.stderr)")
            #expect(probe.stdout.contains("\"h264\"") && probe.stdout.contains("\"aac\""), "\(probe.stdout)")
            // Every picture counted: not live, which would skip what the opening gathered
            // beyond the target latency.
            let played = try reel("play", "--headless", "--stats", "--live", "off", "--rtsp-transport", "udp", server.open, timeout: 60)
            #expect(played.status == 0, "\(played.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(played.stdout.utf8)) as? [String: Any]
            let shown = (report?["statistics"] as? [String: Any])?["frames_shown"] as? Int ?? 0
            #expect(shown >= 45, "\(shown) of 50 frames shown over RTP/UDP on loopback")
        }

        @Test(.timeLimit(.minutes(2))) func credentialsAreAskedForAndTakenFromTheOptions() throws {
            let file = try Self.clip()
            let server = try Server(serving: file)
            defer { server.stop() }
            let refused = try reel("probe", server.secured, timeout: 60)
            #expect(refused.status == 1 && refused.stderr.contains("the server wants credentials it was not given, or refused them (401)"), "\(refused.stderr)")
            let wrong = try reel("probe", "--user", "viewer", "--password", "guess", server.secured, timeout: 60)
            #expect(wrong.status == 1 && wrong.stderr.contains("viewer:***@") && !wrong.stderr.contains("guess"), "\(wrong.stderr)")
            let expected = hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]).stdout)
            let received = try reel("decode", "--framemd5", "--rtsp-transport", "tcp", "--user", "viewer", "--password", "s3cr@t", server.secured, timeout: 60)
            #expect(received.status == 0, "\(received.stderr)")
            #expect(hashes(received.stdout) == expected, "\(hashes(received.stdout).count) pictures received of \(expected.count)")
        }
    }
}
