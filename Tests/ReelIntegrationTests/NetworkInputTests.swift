import Foundation
import Testing

/// Inputs that are not local files, fed by real senders (ffmpeg) on loopback.
@Suite(.serialized) struct NetworkInputTests {
    /// The hash column of a framemd5 report: the frames themselves, whatever their timestamps.
    private func frameHashes(_ report: String) -> [Substring] {
        report.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last }
    }

    /// `reel decode --framemd5 url` (with `options`), retried while the server starting
    /// beside it is not yet listening.
    private func decodeOnceServing(_ url: String, _ options: [String] = []) throws -> ProcessResult {
        let decode = { try Processes.run(Paths.reel, ["decode", "--framemd5"] + options + [url]) }
        var result = try decode()
        for _ in 0..<20 where result.stderr.contains("connection refused") {
            Thread.sleep(forTimeInterval: 0.25)
            result = try decode()
        }
        return result
    }

    private func localHashes(_ path: String) throws -> [Substring] {
        let result = try reel("decode", "--framemd5", path)
        try #require(result.status == 0, "\(result.stderr)")
        return frameHashes(result.stdout)
    }

    @Test func decodesOverHTTPFromARealServer() throws {
        let fixture = Fixtures.named("h264-mp3.ts")
        let port = try SilentServer.unusedPort()
        let url = "http://127.0.0.1:\(port)/live.ts"
        let server = try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-i", fixture.path, "-c", "copy",
                                                     "-f", "mpegts", "-listen", "1", url])
        defer { server.stop() }
        let result = try decodeOnceServing(url)
        #expect(result.status == 0, "\(result.stderr)")
        let hashes = frameHashes(result.stdout)
        #expect(hashes.count == 50)
        #expect(hashes == (try localHashes(fixture.path)))
    }

    /// A server whose certificate nobody signed, with the check turned off (as `curl -k`;
    /// TLSVerificationTests has the check itself).
    @Test func decodesOverHTTPSWithASelfSignedServerUnchecked() throws {
        let fixture = Fixtures.named("h264-mp3.ts")
        let directory = try Paths.temporaryDirectory()
        let key = directory.appendingPathComponent("key.pem").path, certificate = directory.appendingPathComponent("cert.pem").path
        let made = try Processes.run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                                                 "-days", "1", "-subj", "/CN=127.0.0.1"])
        try #require(made.status == 0, "\(made.stderr)")
        let port = try SilentServer.unusedPort()
        let url = "https://127.0.0.1:\(port)/live.ts"
        let server = try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-i", fixture.path, "-c", "copy", "-f", "mpegts",
                                                     "-listen", "1", "-cert_file", certificate, "-key_file", key, url])
        defer { server.stop() }
        let result = try decodeOnceServing(url, ["--no-tls-verify"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(frameHashes(result.stdout) == (try localHashes(fixture.path)))
    }

    @Test func probesMPEGTSOverUDP() throws {
        let port = try SilentServer.unusedPort()
        let probe = try BackgroundProbe(["probe", "--json", "--timeout", "10", "udp://127.0.0.1:\(port)"])
        try RTPStreams.waitUntilBound(Int(port))
        let sender = try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", Fixtures.named("h264-mp3.ts").path,
                                                     "-c", "copy", "-f", "mpegts", "udp://127.0.0.1:\(port)?pkt_size=1316"])
        defer { sender.stop() }
        let result = try probe.wait(timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        let streams = try streamsOf(result.stdout)
        #expect(streams.contains { $0["codec_name"] as? String == "h264" && $0["width"] as? Int == 320 })
        #expect(streams.contains { $0["codec_name"] as? String == "mp3" })
    }

    @Test func probesRTPFromAnSDPFile() throws {
        let port = try SilentServer.unusedPort() & ~1
        let sdp = try Paths.temporaryDirectory().appendingPathComponent("session.sdp").path
        let senderArguments = ["-v", "error", "-nostdin", "-re", "-stream_loop", "2", "-i", Fixtures.named("h264-baseline-aac.mp4").path,
                               "-an", "-c:v", "copy", "-f", "rtp", "-sdp_file", sdp, "rtp://127.0.0.1:\(port)"]
        let sender = try BackgroundProcess("ffmpeg", senderArguments)
        defer { sender.stop() }
        for _ in 0..<40 where !FileManager.default.fileExists(atPath: sdp) { Thread.sleep(forTimeInterval: 0.1) }
        let result = try reel("probe", "--json", "--timeout", "10", sdp, timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let streams = try streamsOf(result.stdout)
        #expect(streams.first?["codec_name"] as? String == "h264")
        #expect(streams.first?["width"] as? Int == 320)
    }

    @Test func probesRTMPFromNginx() throws {
        let server = try RTMPServer()
        defer { server.stop() }
        let url = server.url()
        let publisher = try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-re", "-stream_loop", "-1",
                                                        "-i", Fixtures.named("h264-mp3.flv").path, "-c", "copy", "-f", "flv", url])
        defer { publisher.stop() }
        try server.waitForPublisher(publisher)
        let result = try reel("probe", "--json", "--timeout", "10", url, timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let streams = try streamsOf(result.stdout)
        #expect(streams.contains { $0["codec_name"] as? String == "h264" && $0["height"] as? Int == 240 }, "\(streams)")
        #expect(streams.contains { $0["codec_name"] as? String == "mp3" })
    }

    @Test func readsHLSPlaylists() throws {
        let fixture = Fixtures.named("h264-baseline-aac.mp4")
        let directory = try Paths.temporaryDirectory()
        let playlist = directory.appendingPathComponent("index.m3u8").path
        let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", fixture.path, "-c", "copy", "-f", "hls",
                                                "-hls_time", "1", "-hls_list_size", "0", playlist])
        try #require(made.status == 0, "\(made.stderr)")
        let probe = try reel("probe", "--json", playlist)
        #expect(probe.status == 0, "\(probe.stderr)")
        #expect(probe.stdout.contains("\"format_name\" : \"hls\""))
        let decoded = try reel("decode", "--framemd5", playlist)
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(frameHashes(decoded.stdout) == (try localHashes(fixture.path)))
    }

    /// The timeout is time without a byte arriving, as FFmpeg's `rw_timeout`: probing a
    /// file whose bytes trickle in over a slow link for longer than the timeout succeeds.
    /// (A deadline on the whole probe said "no answer within 1 s" here after 7 s of bytes,
    /// and on RTMP it cut the probe in the middle of a message.)
    @Test func aSlowLinkIsNotATimeoutWhileBytesArrive() throws {
        let fixture = Fixtures.named("h264-mp3.ts")
        let directory = try Paths.temporaryDirectory()
        try FileManager.default.copyItem(atPath: fixture.path, toPath: directory.appendingPathComponent("clip.ts").path)
        let server = try StaticWebServer(root: directory)
        let relay = try FaultyRelay(to: server.port)
        defer { relay.stop() }
        // 25 kB/s: probing reads the clip and its end (for the duration), for several seconds.
        relay.limit(bitsPerSecond: 200_000)
        let started = Date()
        let probe = try reel("probe", "--json", "--timeout", "1", "http://127.0.0.1:\(relay.port)/clip.ts", timeout: 60)
        let elapsed = Date().timeIntervalSince(started)
        print(String(format: "slow link: probed in %.1f s with --timeout 1", elapsed))
        try #require(probe.status == 0, "\(probe.stderr)")
        #expect(elapsed > 3, "the link was not slow enough to test the timeout: \(elapsed) s")
        let oracle = try Processes.run("ffprobe", ["-v", "error", "-of", "json", "-show_entries", "stream=codec_name", fixture.path])
        let codecs = { (json: String) in try self.streamsOf(json).compactMap { $0["codec_name"] as? String } }
        #expect(try codecs(probe.stdout) == codecs(oracle.stdout))
    }

    private func streamsOf(_ json: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return object?["streams"] as? [[String: Any]] ?? []
    }
}

/// `reel` started in the background (a receiver that must listen before the sender starts).
final class BackgroundProbe: @unchecked Sendable {
    private var result: ProcessResult?
    private let done = DispatchSemaphore(value: 0)

    init(_ arguments: [String]) throws {
        let thread = Thread { [self] in
            result = try? Processes.run(Paths.reel, arguments, timeout: 30)
            done.signal()
        }
        thread.start()
    }

    func wait(timeout: Double) throws -> ProcessResult {
        guard done.wait(timeout: .now() + timeout) == .success, let result else { throw TestSetupError("reel did not finish") }
        return result
    }
}
