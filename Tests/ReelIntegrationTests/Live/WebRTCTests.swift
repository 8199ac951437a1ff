import Foundation
import Testing

extension ServerPlaybackTests {
    /// WHEP and WHIP against a real, independent WebRTC stack: aiortc (Python, started here
    /// on loopback by Support/webrtc-server.py) sends a file's H.264 as it is and its sound
    /// as Opus, and decodes what is published to it; Reel receives and sends through
    /// GStreamer's `webrtcbin`, signalled over HTTP.
    @Suite(.serialized) struct WebRTCTests {
        /// The aiortc server: WHEP at `/whep`, WHIP at `/whip`, 409 at `/busy`.
        final class Server {
            private(set) var port = 0
            private(set) var log = ""
            private let file: String
            private let token: String?
            private let environment: [String: String]
            private var process: BackgroundProcess?

            /// With `environment`, the server's knobs (WEBRTC_SERVER_LOSS, …_JITTER: the
            /// impairment of what it sends).
            init(serving file: String, token: String? = nil, environment: [String: String] = [:]) throws {
                (self.file, self.token, self.environment) = (file, token, environment)
                for _ in 0..<5 {
                    if try start(on: LocalPorts.random()) { break }
                }
                guard process != nil else { throw TestSetupError("the WebRTC server did not start: \((try? String(contentsOfFile: log + ".err", encoding: .utf8)) ?? "")") }
            }

            /// Starts the server on `port`, logging to a file of its own; whether it listens.
            @discardableResult
            func start(on port: Int) throws -> Bool {
                let python = Paths.packageRoot.appendingPathComponent(".cache/python/bin/python").path
                let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("Support/webrtc-server.py").path
                let log = try Paths.temporaryDirectory().appendingPathComponent("webrtc-server.log").path
                let process = try BackgroundProcess(python, [script, String(port), file] + (token.map { [$0] } ?? []), environment: environment,
                                                    outputPath: log, errorPath: log + ".err")
                // It ends at once when the port is taken.
                guard (try? waitFor("the WebRTC server", while: process, condition: { (try? String(contentsOfFile: log, encoding: .utf8))?.contains("ready") ?? false })) != nil
                else { return false }
                (self.port, self.process, self.log) = (port, process, log)
                return true
            }

            /// Ends the server at once (SIGKILL), as a crash would.
            func kill() { process?.kill() }

            var whep: String { "whep+http://127.0.0.1:\(port)/whep" }
            var whip: String { "whip+http://127.0.0.1:\(port)/whip" }
            private var lines: [String] { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
            /// The requests it answered, a line each (`POST /whep 201 ID`, `DELETE … 200`).
            var requests: [String] { lines.filter { $0 != "ready" && !$0.hasPrefix("picture ") } }
            /// How many pictures published to it aiortc decoded.
            var decodedCount: Int { lines.filter { $0.hasPrefix("picture ") }.count }

            /// What its impairment did, as of the last session's end: the counts (`sent`,
            /// `dropped`, `nacked`: asked for again, `keyframes-asked`) and the lists in ms
            /// (`asked-after-ms`: for each drop asked for, how long after the drop;
            /// `keyframe-asked-after-ms`: for each drop, how long until the next keyframe
            /// request, -1 for none; `drop-age-ms`: for each drop, how long before the end).
            var impairmentTruth: (counts: [String: Int], lists: [String: [Int]]) {
                guard let line = requests.last(where: { $0.hasPrefix("impaired ") }) else { return ([:], [:]) }
                let fields = line.split(separator: " ").dropFirst().map { $0.split(separator: "=", maxSplits: 1).map(String.init) }.filter { $0.count == 2 }
                let values = Dictionary(fields.map { ($0[0], $0[1]) }, uniquingKeysWith: { $1 })
                let lists = values.filter { $0.key.hasSuffix("-ms") }.mapValues { $0.split(separator: ",").compactMap { Int($0) } }
                return (values.filter { !$0.key.hasSuffix("-ms") }.compactMapValues { Int($0) }, lists)
            }

            /// Waits (10 s at most) until it logs a line that `matches`.
            func waitForLine(_ matches: @escaping (String) -> Bool) throws {
                guard let process else { throw TestSetupError("the WebRTC server is not running") }
                try waitFor("a line of the WebRTC server's", while: process) { lines.contains(where: matches) }
            }

            /// Waits (10 s at most) until it has decoded `count` pictures published to it.
            func waitForPictures(_ count: Int) throws {
                guard let process else { throw TestSetupError("the WebRTC server is not running") }
                try waitFor("\(count) pictures decoded by the WebRTC server", while: process) { decodedCount >= count }
            }

            func stop() { process?.stop() }
        }

        /// The integer counters of `reception` in a `--stats` report (`packets_lost`,
        /// `packets_repaired`, `keyframes_asked`…); empty without them.
        static func reception(_ report: String) -> [String: Int] {
            let json = try? JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any]
            let reception = (json?["statistics"] as? [String: Any])?["reception"] as? [String: Any] ?? [:]
            return reception.compactMapValues { $0 as? Int }
        }

        /// 4 s of pictures that change every frame, H.264 without B-frames (as WebRTC carries
        /// it) in MPEG-TS (the Annex B aiortc sends as it is), and a 440 Hz tone.
        static func clip() throws -> String {
            try Fixtures.made("webrtc-clip-4s.ts", [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=4", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4",
                "-c:v", "libx264", "-profile:v", "baseline", "-g", "25", "-bf", "0", "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "mpegts"])
        }

        /// ``clip()`` six times over (24 s), for sessions that last until Reel has shown a
        /// number of pictures: a loaded machine's player may be ready only seconds into
        /// what aiortc sends.
        static func longClip() throws -> String {
            try Fixtures.made("webrtc-clip-24s.ts", ["-stream_loop", "5", "-i", try clip(), "-c", "copy", "-f", "mpegts"])
        }

        /// Every picture Reel shows is ffmpeg's decode of the file aiortc sends, in order from
        /// the first: on a clean loopback nothing is lost. The session is ended (DELETE) when
        /// the player stops, and the report names the input.
        @Test(.timeLimit(.minutes(2))) func everyPictureReceivedIsFFmpegsDecodeOfTheFileSent() throws {
            let file = try Self.longClip()
            let server = try Server(serving: file)
            defer { server.stop() }
            let expected = frameMD5Hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]).stdout)
            let tap = try Paths.temporaryDirectory().appendingPathComponent("tap.y4m").path
            // Every picture counted (not live, which would skip to the target latency), until 50
            // are shown: a WebRTC stream has no end of its own, and counted by time (2.5 s) a
            // loaded machine that connected late showed 17.
            let played = try reel("play", "--headless", "--stats", "--live", "off", "--frames", "50", "--timeout", "10", "--tap", "y4m:\(tap)", server.whep, timeout: 60)
            #expect(played.status == 0, "\(played.stderr)")
            let received = FileManager.default.fileExists(atPath: tap) ? frameMD5Hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", tap, "-f", "framemd5", "-"]).stdout) : []
            print("WHEP: \(received.count) pictures shown, of the \(expected.count) in the file; requests: \(server.requests)")
            #expect(received.count >= 50, "\(received.count) pictures shown")
            #expect(Array(expected.prefix(received.count)) == received, "the pictures shown are not the file's, in order from its first")
            let report = try? JSONSerialization.jsonObject(with: Data(played.stdout.utf8)) as? [String: Any]
            #expect((report?["statistics"] as? [String: Any])?["input"] as? String == "WebRTC (WHEP) through GStreamer's webrtcbin", "\(played.stdout.prefix(600))")
            let requests = server.requests
            #expect(requests.contains { $0.hasPrefix("POST /whep 201") } && requests.contains { $0.hasPrefix("DELETE /whep/session/") && $0.hasSuffix(" 200") },
                    "\(requests)")
        }

        /// Over a link that loses 2 % of the packets and holds each up to 40 ms (aiortc's
        /// sending impaired from a seed; a packet sent again is held too but never lost, so
        /// every loss can be mended), webrtcbin asks again for what was lost (NACK) and puts
        /// the rest back in order: the pictures shown are, in order, the file's, and at least
        /// 9 in 10 of them intact (ffmpeg's decode of the file). (Resent packets were lost at
        /// 2 % too before: one lost twice spoiled the rest of a GOP, 3 of 24 pictures, in a CI.)
        /// Each loss is asked for within 0.4 s of the drop, by the server's clock: `rtpsession`
        /// left to itself reports once a second or so and asked 0.25 to 0.78 s late (a repair
        /// then came too late for the jitter buffer, and spoiled the rest of a GOP, in 2 of 8
        /// loaded runs); Reel gives it the RTCP bandwidth to report every ~80 ms.
        @Test(.timeLimit(.minutes(2))) func retransmissionsRepairALossyJitteryLink() throws {
            let file = try Self.longClip()
            let server = try Server(serving: file, environment: ["WEBRTC_SERVER_LOSS": "0.02", "WEBRTC_SERVER_JITTER": "0.04"])
            defer { server.stop() }
            let expected = frameMD5Hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]).stdout)
            let tap = try Paths.temporaryDirectory().appendingPathComponent("tap.y4m").path
            // The jitter buffer holds packets a second: room for 40 ms of jitter, a NACK's
            // retries and a loaded machine (with 200 and 500 ms, repairs asked for late came
            // too late in CIs).
            let played = try reel("play", "--headless", "--stats", "--live", "off", "--frames", "25", "--timeout", "10", "--webrtc-latency", "1",
                                  "--tap", "y4m:\(tap)", server.whep, timeout: 60)
            #expect(played.status == 0, "\(played.stderr)")
            let received = FileManager.default.fileExists(atPath: tap) ? frameMD5Hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", tap, "-f", "framemd5", "-"]).stdout) : []
            let (truth, lists) = server.impairmentTruth
            let askedAfter = lists["asked-after-ms"] ?? []
            // Where each picture shown is in the file (nil: not intact).
            let places = received.map { expected.firstIndex(of: $0) }
            let intact = places.compactMap { $0 }
            let reception = Self.reception(played.stdout)
            print("WHEP over 2 % loss and 40 ms jitter: \(truth), each drop asked for after \(askedAfter) ms; Reel counted \(reception); \(intact.count) of \(received.count) pictures shown intact, the file's \(places.map { $0 ?? -1 })")
            #expect((truth["dropped"] ?? 0) > 0 && (truth["nacked"] ?? 0) > 0, "the link lost nothing, or nothing was asked for again: \(truth)")
            // Reel's own count of repairs: some, and no more than the server resent.
            #expect((1...(truth["nacked"] ?? 0)).contains(reception["packets_repaired"] ?? 0), "Reel counted \(reception); the server \(truth)")
            #expect(!askedAfter.isEmpty && askedAfter.allSatisfy { $0 < 400 }, "losses asked for again after \(askedAfter) ms")
            // With this seed the pictures begin at the second keyframe, a second in (in every
            // run here): a packet lost before any came is one nothing can ask for again. The
            // session lasts 25 pictures, as many as came in 2.5 s on an idle machine (counted
            // by time, a loaded one that connected late showed 12 to 18). Longer runs would not
            // help: each more second is one more chance of a loss no retransmission mends,
            // which spoils a whole GOP.
            #expect(received.count >= 25 && intact.count * 10 >= received.count * 9, "\(intact.count) of \(received.count) pictures intact")
            #expect(zip(intact, intact.dropFirst()).allSatisfy { $0 < $1 }, "the pictures shown are out of the file's order")
        }

        /// VP8 (aiortc encodes the file's pictures with libvpx, at its 500 kbit/s): each
        /// picture Reel shows is one of the file's, in the file's order, by its luma against
        /// ffmpeg's decode of the file (the file picture it is nearest is at least 32 dB near,
        /// 40–51 dB measured, and later than the one before: VP8 is lossy, and libvpx may drop
        /// a picture).
        @Test(.timeLimit(.minutes(2))) func aVP8StreamShowsTheFilesPictures() throws {
            let file = try Self.clip()
            let server = try Server(serving: file, environment: ["WEBRTC_SERVER_VIDEO_CODEC": "vp8", "WEBRTC_SERVER_AUDIO": "0"])
            defer { server.stop() }
            let tap = try Paths.temporaryDirectory().appendingPathComponent("tap.y4m").path
            let played = try reel("play", "--headless", "--live", "off", "--frames", "25", "--timeout", "10", "--tap", "y4m:\(tap)", server.whep, timeout: 60)
            #expect(played.status == 0, "\(played.stderr)")
            // The pictures' Y planes, as they are.
            func lumas(_ path: String) throws -> [[UInt8]] {
                let planes = try Paths.temporaryDirectory().appendingPathComponent("luma.raw").path
                _ = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", path, "-map", "0:v", "-vf", "extractplanes=y", "-f", "rawvideo", planes])
                let raw = [UInt8](try Data(contentsOf: URL(fileURLWithPath: planes)))
                return stride(from: 0, to: raw.count - 320 * 240 + 1, by: 320 * 240).map { Array(raw[$0..<($0 + 320 * 240)]) }
            }
            let (expected, received) = (try lumas(file), FileManager.default.fileExists(atPath: tap) ? try lumas(tap) : [])
            // For each picture shown, the file's picture it is nearest to, and how near (dB).
            let nearest = received.map { picture in
                expected.indices.map { ($0, SubtitleTests.psnr(picture, expected[$0])) }.max { $0.1 < $1.1 }!
            }
            print("WHEP VP8: \(received.count) pictures shown; nearest the file's \(nearest.map(\.0)) at \(nearest.map { Int($0.1.rounded()) }) dB; \(server.requests.first ?? "")")
            #expect(received.count >= 25, "\(received.count) pictures shown")
            #expect(nearest.allSatisfy { $0.1 >= 32 }, "pictures shown far from all of the file's: \(nearest.map { Int($0.1.rounded()) }) dB")
            #expect(zip(nearest, nearest.dropFirst()).allSatisfy { $0.0 < $1.0 }, "the pictures shown are out of the file's order: \(nearest.map(\.0))")
        }

        /// A loss that no retransmission mends (the server never sends a dropped packet
        /// again, at 2 % loss) is followed by a keyframe request (PLI): each drop older than
        /// 1.5 s at the end is followed by one within 1 s, by the server's clock. aiortc sends
        /// the file as it is and cannot answer one, so the pictures are not checked here. The
        /// session lasts 100 pictures (by time, 3 s, a loaded machine's ended after 27
        /// packets, too soon for any drop to be judged).
        @Test(.timeLimit(.minutes(2))) func aLossNoRetransmissionMendsAsksForAKeyframe() throws {
            let server = try Server(serving: try Self.longClip(), environment: ["WEBRTC_SERVER_LOSS": "0.02", "WEBRTC_SERVER_UNREPAIRED": "1", "WEBRTC_SERVER_AUDIO": "0"])
            defer { server.stop() }
            let played = try reel("play", "--headless", "--stats", "--live", "off", "--frames", "100", "--timeout", "10", server.whep, timeout: 60)
            #expect(played.status == 0, "\(played.stderr)")
            let (truth, lists) = server.impairmentTruth
            let (keyframeAskedAfter, ages) = (lists["keyframe-asked-after-ms"] ?? [], lists["drop-age-ms"] ?? [])
            let reception = Self.reception(played.stdout)
            print("WHEP over 2 % loss never repaired: \(truth), a keyframe asked for after \(keyframeAskedAfter) ms of drops \(ages) ms before the end; Reel counted \(reception)")
            #expect((truth["dropped"] ?? 0) > 0 && (truth["keyframes-asked"] ?? 0) > 0, "\(truth)")
            #expect((reception["keyframes_asked"] ?? 0) > 0 && (reception["packets_lost"] ?? 0) > 0 && reception["packets_repaired"] == 0, "Reel counted \(reception)")
            // A drop in the session's last moments may come too late to be asked about.
            let judged = zip(keyframeAskedAfter, ages).filter { $0.1 > 1500 }.map(\.0)
            #expect(!judged.isEmpty && judged.allSatisfy { (0..<1000).contains($0) }, "keyframes asked for after \(keyframeAskedAfter) ms of drops \(ages) ms before the end")
        }

        /// `reel encode -o whip+…` publishes a file to aiortc, which decodes what comes with
        /// libavcodec: every picture it decodes is, in order, the decode of what Reel's encoder
        /// wrote beside it (`-o sent.h264`, the same samples), and none is missing on a clean
        /// loopback; the file's 440 Hz tone comes through Opus at 440 Hz. The bearer token
        /// goes with the offer; the session is ended at the end.
        @Test(.timeLimit(.minutes(2))) func whatReelPublishesOverWHIPIsWhatItsEncoderMade() throws {
            let source = try Fixtures.made("webrtc-publish-3s.mkv", [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=3", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=3",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "matroska"])
            let directory = try Paths.temporaryDirectory()
            let sound = directory.appendingPathComponent("sound.wav").path
            let arrived = directory.appendingPathComponent("arrived.h264").path
            let server = try Server(serving: try Self.clip(), token: "s3cret", environment: ["WEBRTC_SERVER_SOUND": sound, "WEBRTC_SERVER_VIDEO": arrived])
            defer { server.stop() }
            let sent = directory.appendingPathComponent("sent.h264").path
            // Baseline, as aiortc (and every browser) decodes it; a keyframe each second.
            let encode = try reel("encode", "-i", source, "--profile", "baseline", "--gop", "25", "--whip-token", "s3cret", "-o", server.whip, "-o", sent, timeout: 60)
            #expect(encode.status == 0, "\(encode.stderr)")
            try server.waitForLine { $0 == "video ended" }
            let expected = frameMD5Hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", sent, "-f", "framemd5", "-"]).stdout)
            let received = frameMD5Hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", arrived, "-f", "framemd5", "-"]).stdout)
            print("WHIP: ffmpeg decodes \(received.count) pictures from what the server received, \(expected.count) from what the encoder wrote; requests: \(server.requests)")
            // aiortc hands a picture on when the next begins, and the session closes on DELETE:
            // the last few never reach it.
            #expect(expected.count >= 70 && received.count >= expected.count - 4, "\(received.count) of \(expected.count) pictures arrived")
            #expect(Array(expected.prefix(received.count)) == received, "what arrived does not decode to the encoder's pictures, in order from the first")
            let requests = server.requests
            #expect(requests.contains { $0.hasPrefix("POST /whip 201") } && requests.contains { $0.hasPrefix("DELETE /whip/session/") && $0.hasSuffix(" 200") },
                    "\(requests)")
            try server.waitForLine { $0.hasPrefix("sound ") }
            let raw = directory.appendingPathComponent("sound.f32").path
            _ = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", sound, "-ac", "1", "-f", "f32le", raw])
            let samples = try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            // A second from the middle: the first and last Opus frames may be cut.
            let heard = samples.count >= 96_000 ? toneFrequency(samples[24_000..<72_000], rate: 48_000) : 0
            print("WHIP sound: \(samples.count) samples at 48 kHz, a tone of \(heard) Hz")
            #expect(abs(heard - 440) < 5, "\(samples.count) samples, \(heard) Hz")
        }

        /// A keyframe request from the peer (an RTCP PLI, which webrtcbin turns into an
        /// upstream GstForceKeyUnit) makes Reel's encoder start a keyframe at once: with one
        /// keyframe in 250 pictures asked for, the only other one in what the encoder wrote
        /// (ffprobe's key flags) comes within a few pictures of the request, and what the
        /// server received has it at the same place.
        @Test(.timeLimit(.minutes(2))) func aPeersKeyframeRequestIsAnsweredWithAKeyframe() throws {
            let source = try Fixtures.made("webrtc-publish-3s.y4m", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=3", "-pix_fmt", "yuv420p", "-f", "yuv4mpegpipe"])
            let directory = try Paths.temporaryDirectory()
            let arrived = directory.appendingPathComponent("arrived.h264").path
            let server = try Server(serving: try Self.clip(), environment: ["WEBRTC_SERVER_PLI_AFTER": "25", "WEBRTC_SERVER_VIDEO": arrived])
            defer { server.stop() }
            let sent = directory.appendingPathComponent("sent.h264").path
            let encode = try reel("encode", "-i", source, "--profile", "baseline", "--gop", "250", "--realtime", "-o", server.whip, "-o", sent, timeout: 60)
            #expect(encode.status == 0, "\(encode.stderr)")
            try server.waitForLine { $0 == "video ended" }
            func keyframes(_ path: String) throws -> [Int] {
                let flags = try Processes.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=key_frame", "-of", "csv=p=0", path]).stdout
                    .split(separator: "\n").map { $0.hasPrefix("1") }
                return flags.indices.filter { flags[$0] }
            }
            let written = try keyframes(sent), received = try keyframes(arrived)
            print("WHIP keyframe request after picture 25: keyframes written at \(written), received at \(received)")
            #expect(server.requests.contains("pli"), "\(server.requests)")
            #expect(written.count == 2 && written.first == 0 && (26...35).contains(written.last ?? 0), "keyframes at \(written)")
            #expect(received == written, "the server received keyframes elsewhere")
        }

        /// The camera published over WHIP runs until Ctrl-C, which ends the encode as the
        /// input's end would: the session is ended at the server (DELETE) and the exit is clean.
        @Test(.timeLimit(.minutes(2))) func ctrlCEndsACameraPublishedOverWHIP() throws {
            let server = try Server(serving: try Self.clip())
            defer { server.stop() }
            let errors = try Paths.temporaryDirectory().appendingPathComponent("encode.err").path
            let camera = try BackgroundProcess(Paths.reel, ["encode", "--camera", "320x240@25", "--realtime", "--profile", "baseline", "-o", server.whip],
                                               errorPath: errors)
            defer { camera.stop() }
            try server.waitForPictures(25)
            camera.interrupt()
            #expect(camera.waitForExit(within: 10) && camera.exitStatus == 0, "\((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
            #expect(server.requests.contains { $0.hasPrefix("DELETE /whip/session/") && $0.hasSuffix(" 200") }, "\(server.requests)")
        }

        /// A WHIP endpoint's refusal ends the encode with one line naming it.
        @Test(.timeLimit(.minutes(1))) func aRefusedPublisherIsOneClearLine() throws {
            let server = try Server(serving: try Self.clip(), token: "s3cret")
            defer { server.stop() }
            let refused = try reel("encode", "--camera", "320x240@25", "--duration", "2", "-o", server.whip, timeout: 30)
            let lines = refused.stderr.split(separator: "\n")
            #expect(refused.status != 0 && lines.count == 1 && refused.stderr.contains("401"), "\(refused.stderr)")
            let h265 = try reel("encode", "--camera", "320x240@25", "--duration", "2", "--codec", "h265", "-o", server.whip, timeout: 30)
            #expect(h265.status != 0 && h265.stderr.contains("H.264"), "\(h265.stderr)")
        }

        /// A server that goes away (killed: ICE stays up here, nothing comes) is a lost input
        /// after 3 s of silence; the player opens a new WHEP session when it is back, and the
        /// pictures go on.
        @Test(.timeLimit(.minutes(2))) func aLostServerIsAskedForANewSessionWhenItIsBack() throws {
            let long = try Self.longClip()
            let server = try Server(serving: long)
            defer { server.stop() }
            let stderr = try Paths.temporaryDirectory().appendingPathComponent("play.err").path
            let player = try BackgroundProcess(Paths.reel, ["play", "--headless", "--stats", "--reconnect-for", "20", server.whep], errorPath: stderr)
            defer { player.stop() }
            func said() -> String { ((try? String(contentsOfFile: stderr, encoding: .utf8)) ?? "").replacingOccurrences(of: "\r", with: "\n") }
            // The status line's count of pictures shown, the newest.
            func shown() -> Int {
                said().components(separatedBy: " shown ").dropFirst().compactMap { Int($0.drop { $0 == " " }.prefix { $0.isNumber }) }.last ?? 0
            }
            try waitFor("10 pictures shown", while: player) { shown() >= 10 }
            server.kill()
            let port = server.port
            #expect(waitForText("reconnecting (attempt 1)", in: stderr, timeout: 20) != nil, "\(said().suffix(600))")
            #expect(said().contains("nothing came over WebRTC for 3 s"), "\(said().suffix(600))")
            #expect(try server.start(on: port), "the server did not start again on \(port)")
            _ = waitForText("reel: picture back", in: stderr, timeout: 20)
            // The player's own lines, each from its "reel:" (a status line may lead it).
            let lines = said().components(separatedBy: "reel: ").dropFirst().map { "reel: " + ($0.split(separator: "\n").first ?? "") }
            print("WHEP reconnect:\n\(lines.joined(separator: "\n"))")
            #expect(lines.contains { $0.hasPrefix("reel: reconnected after") } && lines.contains { $0.hasPrefix("reel: picture back") }, "\(lines)")
            #expect(server.requests.contains { $0.hasPrefix("POST /whep 201") }, "a new session: \(server.requests)")
        }

        /// A WHEP stream in a real window under Xvfb: screenshots of the window show pictures
        /// of the file served (the best PSNR against ffmpeg's accurate RGB of any of its
        /// pictures), and not one held: a later screenshot shows another of them.
        @Test(.timeLimit(.minutes(2))) func theWindowShowsTheWHEPStream() throws {
            let long = try Self.longClip()
            let server = try Server(serving: long)
            defer { server.stop() }
            let display = try VirtualDisplay()
            defer { display.stop() }
            let (player, window) = try display.play([server.whep])
            defer { player.stop() }
            let directory = try Paths.temporaryDirectory()
            let picture = (window.x, window.y, 320, 240)
            var shots: [String] = []
            func shot() throws -> String {
                let path = directory.appendingPathComponent("shot\(shots.count).png").path
                try display.screenshot(to: path)
                shots.append(path)
                return path
            }
            let first = display.waitFor({ (try? VirtualDisplay.bestPSNR(try shot(), crop: picture, amongPicturesOf: Self.clip(), conversion: SubtitleTests.accurateRGB)) ?? 0 },
                                        until: { $0 >= 35 })
            let earlier = directory.appendingPathComponent("earlier.png").path
            _ = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", try #require(shots.last), "-vf", "crop=320:240:\(window.x):\(window.y)", earlier])
            // The next screenshot whose picture differs from that one (10 s at most).
            let same = display.waitFor({ (try? VirtualDisplay.psnr(try shot(), crop: picture, against: earlier)) ?? .infinity }, until: { $0 < 35 })
            let later = try #require(shots.last)
            let second = try VirtualDisplay.bestPSNR(later, crop: picture, amongPicturesOf: Self.clip(), conversion: SubtitleTests.accurateRGB)
            print("WHEP in a window: \(first) dB and \(second) dB against the file's pictures; the two screenshots \(same) dB apart")
            #expect(first >= 35 && second >= 35, "the window does not show the file's pictures: \(first) dB, \(second) dB")
            #expect(same < 35, "the picture did not change in 10 s: \(same) dB between screenshots")
        }

        /// `reel probe` of a WHEP endpoint lists what the answer negotiated and the pictures
        /// decoded, then ends the session.
        @Test(.timeLimit(.minutes(1))) func probeListsTheNegotiatedTracks() throws {
            let server = try Server(serving: try Self.clip())
            defer { server.stop() }
            let probe = try reel("probe", "--json", "--timeout", "10", server.whep, timeout: 30)
            #expect(probe.status == 0, "\(probe.stderr)")
            let info = try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any]
            let streams = info?["streams"] as? [[String: Any]] ?? []
            #expect(streams.map { $0["codec_name"] as? String ?? "?" } == ["h264", "opus"], "\(probe.stdout)")
            #expect(streams.first?["width"] as? Int == 320 && streams.first?["height"] as? Int == 240, "\(probe.stdout)")
            #expect(server.requests.contains { $0.hasPrefix("DELETE /whep/session/") }, "\(server.requests)")
        }

        /// A refusal is one line naming it, and a failing exit, at once.
        @Test(.timeLimit(.minutes(1))) func aRefusedOfferIsOneClearLine() throws {
            let server = try Server(serving: try Self.clip(), token: "s3cret")
            defer { server.stop() }
            let unauthorised = try reel("play", "--headless", "--timeout", "10", server.whep, timeout: 30)
            #expect(unauthorised.status != 0 && unauthorised.stderr.contains("(401)"), "\(unauthorised.stderr)")
            let busy = try reel("play", "--headless", "--timeout", "10", "--whep-token", "s3cret", "whep+http://127.0.0.1:\(server.port)/busy", timeout: 30)
            #expect(busy.status != 0 && busy.stderr.contains("409") && busy.stderr.contains("no room for another viewer"), "\(busy.stderr)")
            let missing = try reel("play", "--headless", "--timeout", "10", "--whep-token", "s3cret", "whep+http://127.0.0.1:\(server.port)/nothing", timeout: 30)
            #expect(missing.status != 0 && missing.stderr.contains("(404)"), "\(missing.stderr)")
        }
    }
}
