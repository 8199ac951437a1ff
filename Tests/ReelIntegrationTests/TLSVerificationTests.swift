import Foundation
import Reel
import Testing

/// A TLS server's certificate is checked the same way through both engines, against nginx
/// serving HTTPS with certificates openssl makes here: an authority of the test's own, a
/// certificate it signed for 127.0.0.1, and one signed by itself.
@Suite struct TLSVerificationTests {
    /// The PEM files of one test: the authority, and two certificates for 127.0.0.1 with
    /// their keys, one the authority signed and one signed by itself.
    struct Certificates {
        let authority: String
        let signed: (certificate: String, key: String)
        let selfSigned: (certificate: String, key: String)

        init() throws {
            let directory = try Paths.temporaryDirectory()
            func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
            func openssl(_ arguments: [String]) throws {
                let result = try Processes.run("openssl", arguments)
                guard result.status == 0 else { throw TestSetupError("openssl \(arguments.first ?? ""): \(result.stderr)") }
            }
            let host = ["-addext", "subjectAltName=IP:127.0.0.1"]
            try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Reel Test Authority",
                         "-keyout", path("authority.key"), "-out", path("authority.pem")])
            try openssl(["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", path("signed.key"), "-out", path("signed.csr")])
            try "subjectAltName=IP:127.0.0.1\n".write(toFile: path("names.cnf"), atomically: true, encoding: .utf8)
            try openssl(["x509", "-req", "-days", "2", "-in", path("signed.csr"), "-CA", path("authority.pem"), "-CAkey", path("authority.key"),
                         "-CAcreateserial", "-extfile", path("names.cnf"), "-out", path("signed.pem")])
            try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1"] + host
                        + ["-keyout", path("self.key"), "-out", path("self.pem")])
            authority = path("authority.pem")
            signed = (path("signed.pem"), path("signed.key"))
            selfSigned = (path("self.pem"), path("self.key"))
        }
    }

    /// 2 s of H.264 and AAC in MPEG-TS, and the same as an HLS playlist of 1 s segments.
    static func media() throws -> URL {
        let directory = try Paths.temporaryDirectory()
        let clip = try Fixtures.made("tls-clip-2s.ts", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2", "-f", "lavfi", "-i", "sine=frequency=440:duration=2",
            "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "mpegts"])
        try FileManager.default.copyItem(atPath: clip, toPath: directory.appendingPathComponent("clip.ts").path)
        let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", clip, "-c", "copy", "-f", "hls", "-hls_time", "1", "-hls_list_size", "0",
                                                directory.appendingPathComponent("index.m3u8").path])
        guard made.status == 0 else { throw TestSetupError("ffmpeg's HLS: \(made.stderr)") }
        return directory
    }

    /// `reel play` of `url` for half a second, headless, with `options`.
    static func play(_ url: String, engine: PlaybackEngineKind, _ options: [String] = []) throws -> ProcessResult {
        try Processes.run(Paths.reel, ["play", "--headless", "--engine", engine.rawValue, "--duration", "0.5", "--timeout", "10"] + options + [url], timeout: 60)
    }

    /// The one line a refused certificate gets, through either engine.
    static func refusal(_ url: String) -> String { "reel: cannot open '\(url)': the server's TLS certificate is not trusted" }

    /// A certificate signed by an authority of the test's own is refused with the system's
    /// authorities (one line, exit 1), and taken with `--tls-ca-file` naming the authority
    /// or with `--no-tls-verify`; a self-signed one is refused even with the authority
    /// named. Through each engine.
    @Test(arguments: PlaybackEngineKind.allCases) func aCertificateIsTakenOnlyFromATrustedAuthority(engine: PlaybackEngineKind) throws {
        let certificates = try Certificates()
        let media = try Self.media()
        let server = try StaticWebServer(root: media, tls: certificates.signed)
        defer { server.stop() }
        let selfSigned = try StaticWebServer(root: media, tls: certificates.selfSigned)
        defer { selfSigned.stop() }
        let url = server.url("clip.ts")
        let refused = try Self.play(url, engine: engine)
        #expect(refused.status == 1 && refused.stderr.split(separator: "\n").count == 1 && refused.stderr.hasPrefix(Self.refusal(url)),
                "\(engine), the system's authorities: exit \(refused.status), \(refused.stderr)")
        let trusted = try Self.play(url, engine: engine, ["--tls-ca-file", certificates.authority])
        #expect(trusted.status == 0, "\(engine), --tls-ca-file: \(trusted.stderr)")
        let unchecked = try Self.play(url, engine: engine, ["--no-tls-verify"])
        #expect(unchecked.status == 0, "\(engine), --no-tls-verify: \(unchecked.stderr)")
        let other = selfSigned.url("clip.ts")
        let notSigned = try Self.play(other, engine: engine, ["--tls-ca-file", certificates.authority])
        #expect(notSigned.status == 1 && notSigned.stderr.hasPrefix(Self.refusal(other)), "\(engine), self-signed: \(notSigned.stderr)")
    }

    /// The certificate must name the host of the URL: `localhost` is refused for a
    /// certificate of 127.0.0.1, even from the trusted authority.
    @Test(arguments: PlaybackEngineKind.allCases) func aCertificateForAnotherHostIsRefused(engine: PlaybackEngineKind) throws {
        let certificates = try Certificates()
        let server = try StaticWebServer(root: try Self.media(), tls: certificates.signed)
        defer { server.stop() }
        let url = "https://localhost:\(server.port)/clip.ts"
        let result = try Self.play(url, engine: engine, ["--tls-ca-file", certificates.authority])
        #expect(result.status == 1 && result.stderr.hasPrefix(Self.refusal(url)), "\(engine): exit \(result.status), \(result.stderr)")
    }

    /// An HLS stream is checked segment by segment: its playlist on a trusted server plays
    /// when its segments are there too, and is refused when they are on a self-signed
    /// server (FFmpeg's HLS demuxer alone passes no TLS options to the segments it opens:
    /// `ffmpeg -tls_verify 1 -ca_file …` plays such a stream).
    @Test(arguments: PlaybackEngineKind.allCases) func anHLSStreamsSegmentsAreCheckedToo(engine: PlaybackEngineKind) throws {
        let certificates = try Certificates()
        let media = try Self.media()
        let segments = try StaticWebServer(root: media, tls: certificates.selfSigned)
        defer { segments.stop() }
        let playlist = try String(contentsOf: media.appendingPathComponent("index.m3u8"), encoding: .utf8)
        let elsewhere = playlist.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix(".ts") ? segments.url(String($0)) : String($0) }.joined(separator: "\n")
        try elsewhere.write(to: media.appendingPathComponent("elsewhere.m3u8"), atomically: true, encoding: .utf8)
        let server = try StaticWebServer(root: media, tls: certificates.signed)
        defer { server.stop() }
        let trusted = try Self.play(server.url("index.m3u8"), engine: engine, ["--tls-ca-file", certificates.authority])
        #expect(trusted.status == 0, "\(engine), segments beside the playlist: \(trusted.stderr)")
        let url = server.url("elsewhere.m3u8")
        let refused = try Self.play(url, engine: engine, ["--tls-ca-file", certificates.authority])
        #expect(refused.status == 1 && refused.stderr.contains("the server's TLS certificate is not trusted"),
                "\(engine), segments on a self-signed server: exit \(refused.status), \(refused.stderr)")
    }

    /// The library checks as the command line does: a ``Player`` opening the stream with
    /// the default ``TLSVerification`` fails with the refusal, and plays it to its end with
    /// the authority named or with checking off. Through the GStreamer engine the named
    /// authority is left to the command-line test above: it stays the process's (GIO's
    /// default database), and this process runs every other suite.
    @Test(.timeLimit(.minutes(1)), arguments: PlaybackEngineKind.allCases)
    func thePlayersConfigurationChecksAsTheCommandLineDoes(engine: PlaybackEngineKind) async throws {
        let certificates = try Certificates()
        let server = try StaticWebServer(root: try Self.media(), tls: certificates.signed)
        defer { server.stop() }
        let url = server.url("clip.ts")
        func player(_ tls: TLSVerification) -> (Player, RecordingVideoOutput) {
            var configuration = Player.Configuration()
            configuration.untimed = true
            configuration.engine = .only(engine)
            configuration.input.tls = tls
            let video = RecordingVideoOutput()
            return (Player(configuration: configuration, videoOutput: { video }, audioOutput: { HeadlessAudioOutput(untimed: true) }), video)
        }
        let (refusing, _) = player(TLSVerification())
        do {
            try await refusing.open(url)
            Issue.record("\(engine): the default checking opened a certificate of the test's authority")
        } catch {
            #expect("\(error)".hasPrefix(Self.refusal(url).dropFirst("reel: ".count)), "\(engine): \(error)")
        }
        #expect(refusing.state == .failed)
        var accepted: [TLSVerification] = [TLSVerification(isOn: false)]
        if engine == .ffmpeg { accepted.append(TLSVerification(authorities: certificates.authority)) }
        for tls in accepted {
            let (playing, video) = player(tls)
            let events = EventLog(playing)
            try await playing.open(url)
            playing.play()
            #expect(await events.wait { if case .endOfStream = $0 { true } else { false } }, "\(engine), \(tls)")
            #expect(video.shown.count == 50, "\(engine), \(tls): \(video.shown.count) pictures of 50")
            playing.stop()
        }
    }
}
