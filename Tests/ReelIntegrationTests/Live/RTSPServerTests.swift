import Foundation
import Testing

extension ServerPlaybackTests {
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
            private let sessionTimeout: Int?
            /// The requests the server received, from its debug log (with a session timeout).
            let requestLog: String

            /// - Parameter sessionTimeout: seconds a session lives without a word from its
            ///   client (gst-rtsp-server's 60 when nil).
            init(serving file: String, sessionTimeout: Int? = nil) throws {
                self.file = file
                self.sessionTimeout = sessionTimeout
                log = try Paths.temporaryDirectory().appendingPathComponent("rtsp-server.log").path
                requestLog = try Paths.temporaryDirectory().appendingPathComponent("rtsp-requests.log").path
                for _ in 0..<5 {
                    if try start(on: LocalPorts.random()) { return }
                }
                throw TestSetupError("the RTSP server did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }

            /// Starts the server on `port` (and `port + 1`); whether it is ready within 5 s.
            @discardableResult
            func start(on port: Int) throws -> Bool {
                let process = try BackgroundProcess("/usr/bin/python3", [script, String(port), file, "viewer", "s3cr@t"] + (sessionTimeout.map { [String($0)] } ?? []),
                                                    environment: sessionTimeout == nil ? [:] : ["GST_DEBUG": "rtspclient:4", "GST_DEBUG_NO_COLOR": "1"],
                                                    outputPath: log, errorPath: sessionTimeout == nil ? nil : requestLog)
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
            /// The same file's video alone, which Reel's own RTSP client receives.
            var video: String { "rtsp://127.0.0.1:\(port)/video" }
            var securedVideo: String { "rtsp://127.0.0.1:\(port + 1)/video" }

            /// Ends the server at once (SIGKILL), as a crash would.
            func kill() { process?.kill() }
            func stop() { process?.stop() }
        }

        static func clip() throws -> String {
            try Fixtures.made("rtsp-clip-2s.mp4", [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2",
                "-c:v", "libx264", "-g", "25", "-bf", "2", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        }

        @Test(.timeLimit(.minutes(2))) func everyPictureArrivesOverTCPAsFFmpegDecodesTheFile() throws {
            let file = try Self.clip()
            let server = try Server(serving: file)
            defer { server.stop() }
            let expected = frameMD5Hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]).stdout)
            let received = try reel("decode", "--framemd5", "--rtsp-transport", "tcp", server.open, timeout: 60)
            #expect(received.status == 0, "\(received.stderr)")
            #expect(frameMD5Hashes(received.stdout) == expected, "\(frameMD5Hashes(received.stdout).count) pictures received of \(expected.count)")
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
            // Video and sound: FFmpeg's RTSP demuxer reads it, not Reel's client (video alone).
            #expect((report?["statistics"] as? [String: Any])?["input"] as? String == "RTSP input")
        }

        /// `reel play --live off --tap` of `url`: its exit, its report's input, and the
        /// tapped pictures' MD5s (ffmpeg's framemd5 of the y4m written).
        private func playAndTap(_ url: String, _ options: [String]) throws -> (status: Int32, stderr: String, input: String?, hashes: [Substring]) {
            let tap = try Paths.temporaryDirectory().appendingPathComponent("tap.y4m").path
            let played = try Processes.run(Paths.reel, ["play", "--headless", "--stats", "--live", "off", "--timeout", "2", "--tap", "y4m:\(tap)"] + options + [url], timeout: 60)
            let report = try? JSONSerialization.jsonObject(with: Data(played.stdout.utf8)) as? [String: Any]
            let tapped = FileManager.default.fileExists(atPath: tap)
                ? frameMD5Hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", tap, "-f", "framemd5", "-"]).stdout) : []
            return (played.status, played.stderr, (report?["statistics"] as? [String: Any])?["input"] as? String, tapped)
        }

        /// One H.264 stream and nothing else: Reel's own client (DESCRIBE, SETUP, PLAY) feeds
        /// its RTP receiver, over TCP and over UDP, and every picture equals ffmpeg's decode of
        /// the file the server sends (B-frames included).
        @Test(.timeLimit(.minutes(2)), arguments: ["tcp", "udp"])
        func reelsClientReceivesEveryPictureOfAVideoOnlyStream(over transport: String) throws {
            let file = try Self.clip()
            let server = try Server(serving: file)
            defer { server.stop() }
            let expected = frameMD5Hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]).stdout)
            let played = try playAndTap(server.video, ["--rtsp-transport", transport])
            #expect(played.status == 0, "\(played.stderr)")
            #expect(played.input == "RTSP (Reel's client and RTP receiver, \(transport == "tcp" ? "interleaved TCP" : "UDP"))")
            #expect(played.hashes == expected, "\(played.hashes.count) pictures received of \(expected.count)")
        }

        /// Digest authentication in Reel's client: no credentials and wrong ones end in the
        /// 401 line at once (no retry storm, the password masked); the right ones play.
        @Test(.timeLimit(.minutes(2))) func reelsClientAnswersDigestAuthentication() throws {
            let file = try Self.clip()
            let server = try Server(serving: file)
            defer { server.stop() }
            let refused = try reel("play", "--headless", server.securedVideo, timeout: 30)
            #expect(refused.status == 1 && refused.stderr.contains("the server wants credentials it was not given, or refused them (401)"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("reconnecting"))
            let wrong = try reel("play", "--headless", "--user", "viewer", "--password", "guess", server.securedVideo, timeout: 30)
            #expect(wrong.status == 1 && wrong.stderr.contains("viewer:***@") && !wrong.stderr.contains("guess") && wrong.stderr.contains("(401)"), "\(wrong.stderr)")
            let expected = frameMD5Hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]).stdout)
            let played = try playAndTap(server.securedVideo, ["--user", "viewer", "--password", "s3cr@t"])
            #expect(played.status == 0, "\(played.stderr)")
            #expect(played.input?.hasPrefix("RTSP (Reel's client") == true && played.hashes == expected, "\(played.hashes.count) of \(expected.count)")
        }

        /// A camera that renews its nonces: a proxy in front of the server asks for digest
        /// credentials itself and calls its nonce stale at SETUP and again at the first
        /// keep-alive after PLAY (sent every 2 s for a 4 s session). Reel's client answers each
        /// time with the new nonce, the proxy's hashlib finds every answer right, and every
        /// picture arrives.
        @Test(.timeLimit(.minutes(2))) func aStaleNonceIsAnsweredWithTheNewOne() throws {
            let file = try Fixtures.made("rtsp-clip-6s.mp4", [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=6", "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p"])
            let server = try Server(serving: file, sessionTimeout: 4)
            defer { server.stop() }
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Support/rtsp-stale-nonce-proxy.py").path
            let port = try SilentServer.unusedPort()
            let log = try Paths.temporaryDirectory().appendingPathComponent("proxy.log").path
            let proxy = try BackgroundProcess("/usr/bin/python3", [script, String(port), String(server.port), "viewer", "s3cr@t"], outputPath: log)
            defer { proxy.stop() }
            try #require(waitForText("ready", in: log, timeout: 10) != nil, "the proxy did not start")
            let expected = frameMD5Hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]).stdout)
            let played = try playAndTap("rtsp://127.0.0.1:\(port)/video", ["--rtsp-transport", "tcp", "--user", "viewer", "--password", "s3cr@t"])
            let requests = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").dropFirst().map(String.init)
            print("RTSP through a proxy whose nonce goes stale: \(requests.joined(separator: "; ")); \(played.hashes.count) of \(expected.count) pictures")
            #expect(played.status == 0, "\(played.stderr)")
            #expect(played.hashes == expected, "\(played.hashes.count) pictures received of \(expected.count)")
            for step in ["SETUP nonce1 stale", "SETUP nonce2 verified", "PLAY nonce2 verified", "OPTIONS nonce2 stale", "OPTIONS nonce3 verified"] {
                #expect(requests.contains(step), "no '\(step)' among \(requests)")
            }
            #expect(requests.filter { $0.hasSuffix("stale") }.count == 2, "\(requests)")
        }

        @Test(.timeLimit(.minutes(2))) func credentialsAreAskedForAndTakenFromTheOptions() throws {
            let file = try Self.clip()
            let server = try Server(serving: file)
            defer { server.stop() }
            let refused = try reel("probe", server.secured, timeout: 60)
            #expect(refused.status == 1 && refused.stderr.contains("the server wants credentials it was not given, or refused them (401)"), "\(refused.stderr)")
            let wrong = try reel("probe", "--user", "viewer", "--password", "guess", server.secured, timeout: 60)
            #expect(wrong.status == 1 && wrong.stderr.contains("viewer:***@") && !wrong.stderr.contains("guess"), "\(wrong.stderr)")
            let expected = frameMD5Hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]).stdout)
            let received = try reel("decode", "--framemd5", "--rtsp-transport", "tcp", "--user", "viewer", "--password", "s3cr@t", server.secured, timeout: 60)
            #expect(received.status == 0, "\(received.stderr)")
            #expect(frameMD5Hashes(received.stdout) == expected, "\(frameMD5Hashes(received.stdout).count) pictures received of \(expected.count)")
        }
    
        /// Recording asked for before the stream opens: FFmpeg's RTSP demuxer reads it even
        /// when it is video alone (a recording remuxes that demuxer's packets), and the file
        /// holds the pictures as ffmpeg decodes them from the original, from a keyframe on.
        @Test(.timeLimit(.minutes(2))) func aStreamRecordedWhilePlayingIsReadByFFmpeg() throws {
            let file = try Self.clip()
            let server = try Server(serving: file)
            defer { server.stop() }
            let recorded = try Paths.temporaryDirectory().appendingPathComponent("recorded.mkv").path
            let played = try reel("play", "--headless", "--stats", "--live", "off", "--timeout", "2", "--record", recorded, server.video, timeout: 60)
            #expect(played.status == 0, "\(played.stderr)")
            let report = try? JSONSerialization.jsonObject(with: Data(played.stdout.utf8)) as? [String: Any]
            #expect((report?["statistics"] as? [String: Any])?["input"] as? String == "RTSP input")
            let expected = frameMD5Hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]).stdout)
            let written = frameMD5Hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", recorded, "-map", "0:v", "-f", "framemd5", "-"]).stdout)
            // From a keyframe on (the clip has one each second) to the end.
            let start = written.first.flatMap { expected.firstIndex(of: $0) } ?? expected.count
            #expect(written.count >= 25 && Array(written) == Array(expected[start...]), "\(written.count) pictures recorded of \(expected.count), from \(start)")
        }

        /// A server whose sessions end after 5 s without a word from the client: Reel's client
        /// asks OPTIONS within the session's timeout (by the clock, as over TCP the packets
        /// never stop coming), which the server's log of its requests shows, and plays on.
        @Test(.timeLimit(.minutes(1))) func reelsClientKeepsItsSessionAlive() throws {
            let server = try Server(serving: try Self.clip(), sessionTimeout: 5)
            defer { server.stop() }
            let played = try reel("play", "--headless", "--live", "off", "--timeout", "2", "--rtsp-transport", "tcp", server.video, timeout: 30)
            #expect(played.status == 0 && !played.stderr.contains("reconnecting"), "\(played.stderr.suffix(300))")
            let requests = (try? String(contentsOfFile: server.requestLog, encoding: .utf8)) ?? ""
            let keepAlives = requests.components(separatedBy: "received a request OPTIONS").count - 1
            #expect(keepAlives >= 1, "\(keepAlives) keep-alives in \(requests.suffix(600))")
        }

        /// Peers that are no RTSP server: one that accepts and says nothing (the timeout),
        /// one that answers in HTTP; each ends in one line, exit 1, without retrying.
        @Test(.timeLimit(.minutes(1))) func reelsClientLeavesASilentOrForeignServerInOneLine() throws {
            let silent = try SilentServer()
            defer { silent.stop() }
            let started = Date()
            let quiet = try reel("play", "--headless", "--timeout", "1", "rtsp://127.0.0.1:\(silent.port)/video", timeout: 30)
            let waited = Date().timeIntervalSince(started)
            #expect(quiet.status == 1 && quiet.stderr.split(separator: "\n").count == 1 && quiet.stderr.contains("no answer within 1 s"), "\(quiet.stderr)")
            #expect(waited < 6, "\(waited) s")
            let http = try ScriptedHTTPServer(serving: try Self.clip(), fraction: 1, then: .hangUp)
            defer { http.stop() }
            let foreign = try reel("play", "--headless", "--timeout", "1", "rtsp://127.0.0.1:\(http.port)/video", timeout: 30)
            #expect(foreign.status == 1 && foreign.stderr.split(separator: "\n").count == 1 && foreign.stderr.contains("not RTSP"), "\(foreign.stderr)")
        }

        /// The server killed and started again on its port while a player plays, twice: the
        /// picture is back within 2 s of the server listening again, through FFmpeg (video
        /// and sound) and through Reel's client (video alone, over TCP and UDP), and no
        /// descriptor is left behind.
        @Test(.timeLimit(.minutes(2)), arguments: [("clip", "tcp"), ("video", "tcp"), ("video", "udp")])
        func aServerKilledAndStartedAgainIsPlayedAgain(mount: String, transport: String) throws {
            let file = try Fixtures.made("rtsp-clip-30s.mp4", [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=30", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=30",
                "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac"])
            let server = try Server(serving: file)
            defer { server.stop() }
            let cycles = try ReconnectCycles(url: "rtsp://127.0.0.1:\(server.port)/\(mount)", arguments: ["--rtsp-transport", transport], cycles: 2) {
                server.kill()
            } bringBack: {
                try #require(try server.start(on: server.port), "the server did not start again on its port")
            }
            print(cycles.line("gst-rtsp-server /\(mount) over \(transport) (killed)"))
            #expect(cycles.resumes.count >= 2 && cycles.resumed(within: 2), "\(cycles.resumes)\n\(cycles.log)")
            #expect(cycles.statistics["reconnects"] as? Int == cycles.resumes.count, "\(cycles.statistics)")
            // A descriptor kept per reconnect (one was, over TCP) shows by the second cycle.
            #expect(cycles.counts.last?.descriptors == cycles.counts.first?.descriptors, "\(cycles.counts)")
        }
    }
}
