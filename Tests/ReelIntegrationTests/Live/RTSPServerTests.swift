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
            private(set) var port = 0
            private var process: BackgroundProcess?
            private let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Support/rtsp-server.py").path
            private let file: String
            private let log: String

            init(serving file: String) throws {
                self.file = file
                log = try Paths.temporaryDirectory().appendingPathComponent("rtsp-server.log").path
                for _ in 0..<5 {
                    if try start(on: Int.random(in: 20_000..<40_000) & ~1) { return }
                }
                throw TestSetupError("the RTSP server did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }

            /// Starts the server on `port` (and `port + 1`); whether it is ready within 5 s.
            @discardableResult
            func start(on port: Int) throws -> Bool {
                let process = try BackgroundProcess("/usr/bin/python3", [script, String(port), file, "viewer", "s3cr@t"], outputPath: log)
                for _ in 0..<100 where process.isRunning {
                    if (try? String(contentsOfFile: log, encoding: .utf8))?.contains("ready") == true {
                        self.port = port
                        self.process = process
                        return true
                    }
                    Thread.sleep(forTimeInterval: 0.05)
                }
                process.stop()
                return false
            }

            var open: String { "rtsp://127.0.0.1:\(port)/clip" }
            var secured: String { "rtsp://127.0.0.1:\(port + 1)/clip" }

            /// Ends the server at once (SIGKILL), as a crash would.
            func kill() { process?.kill() }
            func stop() { process?.stop() }
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
    
        /// The server killed and started again on its port while a player plays over TCP:
        /// playback resumes within 2 s of the server being back.
        @Test(.timeLimit(.minutes(2))) func aServerKilledAndStartedAgainIsPlayedAgain() throws {
            let file = try Fixtures.made("rtsp-clip-30s.mp4", [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=30", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=30",
                "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac"])
            let server = try Server(serving: file)
            defer { server.stop() }
            let directory = try Paths.temporaryDirectory()
            let errors = directory.appendingPathComponent("stderr.txt").path
            let player = try BackgroundProcess(Paths.reel, ["play", "--headless", "--rtsp-transport", "tcp", server.open], errorPath: errors)
            defer { player.stop() }
            Thread.sleep(forTimeInterval: 3)
            server.kill()
            Thread.sleep(forTimeInterval: 0.5)
            try #require(try server.start(on: server.port), "the server did not start again on its port")
            let back = Date()
            var resumed: Date?
            while Date().timeIntervalSince(back) < 15 {
                if ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains("reel: reconnected after") { resumed = Date(); break }
                Thread.sleep(forTimeInterval: 0.02)
            }
            let seconds = try #require(resumed, "not played again: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")").timeIntervalSince(back)
            print(String(format: "RTSP server killed and started again: playing again %.2f s after it was back", seconds))
            #expect(seconds < 2)
            #expect(player.isRunning)
        }
    }
}
