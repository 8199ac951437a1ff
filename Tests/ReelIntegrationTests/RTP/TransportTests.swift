import Foundation
import Testing

extension ServerPlaybackTests {
    /// The seed's transports and RFC 4571, against servers the tests start, serving the
    /// packets ffmpeg sent for a file; the recordings decode to the file's frames.
    @Suite(.serialized) struct TransportTests {
        static func stream(_ directory: URL) throws -> (sent: String, packets: [[UInt8]], sdp: String) {
            let sent = try RTPStreams.sent("zerolatency")
            let (packets, text) = try RTPStreams.captured(sent, directory: directory)
            let sdp = directory.appendingPathComponent("stream.sdp").path
            try text.write(toFile: sdp, atomically: true, encoding: .utf8)
            return (sent, packets, sdp)
        }

        static func expectSameFrames(_ recording: String, as sent: String, _ label: String) throws {
            let expected = try RTPStreams.frameHashes(sent)
            let got = try RTPStreams.frameHashes(recording)
            #expect(got.elementsEqual(expected), "\(label): \(got.count) frames recorded, \(expected.count) sent, \(zip(got, expected).filter { $0 != $1 }.count) differ")
            print("RTP over \(label): \(got.count)/\(expected.count) frames identical")
        }

        @Test func httpProgressiveDownload() throws {
            let directory = try Paths.temporaryDirectory()
            let (sent, packets, sdp) = try Self.stream(directory)
            let server = try StreamServers.http(packets: packets)
            defer { server.stop() }
            let recording = directory.appendingPathComponent("got.h264").path
            let result = try reel("rtp", "receive", "--sdp", sdp, "--transport", "http", "--url", "http://127.0.0.1:\(server.port)/streams/1234567",
                                  "--record", recording, timeout: 60)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"ending\" : \"the transport ended\""))
            #expect(result.stdout.contains("\"received\" : \(packets.count)"))
            try Self.expectSameFrames(recording, as: sent, "HTTP progressive")
        }

        @Test func anHTTPErrorIsReported() throws {
            let server = try StreamServers.http(packets: [])
            defer { server.stop() }
            let directory = try Paths.temporaryDirectory()
            let (_, _, sdp) = try Self.stream(directory)
            let result = try reel("rtp", "receive", "--sdp", sdp, "--transport", "http", "--url", "http://127.0.0.1:\(server.port)/missing", timeout: 30)
            #expect(result.status == 1 && result.stderr.contains("404"), "\(result.stderr)")
        }

        /// FFmpeg's TLS verifies no certificate unless asked; the transport asks, so a
        /// server whose certificate no trusted authority signed is refused, with the reason.
        @Test func anUntrustedCertificateIsRefused() throws {
            let directory = try Paths.temporaryDirectory()
            let (sent, _, sdp) = try Self.stream(directory)
            let key = directory.appendingPathComponent("key.pem").path, certificate = directory.appendingPathComponent("cert.pem").path
            let made = try Processes.run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                                                     "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
            try #require(made.status == 0, "\(made.stderr)")
            let port = try SilentServer.unusedPort()
            let url = "https://127.0.0.1:\(port)/streams/1234567"
            let server = try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-i", sent, "-c", "copy", "-f", "mpegts",
                                                         "-listen", "1", "-cert_file", certificate, "-key_file", key, url])
            defer { server.stop() }
            try waitFor("the HTTPS server on port \(port)", while: server) { try server.isListening(on: port) }
            let result = try reel("rtp", "receive", "--sdp", sdp, "--transport", "http", "--url", url, timeout: 30)
            #expect(result.status == 1 && result.stderr.contains("failed verification"), "\(result.stderr)")
        }

        @Test func tcpWithRFC4571Framing() throws {
            let directory = try Paths.temporaryDirectory()
            let (sent, packets, sdp) = try Self.stream(directory)
            let server = try StreamServers.tcp(packets: packets)
            defer { server.stop() }
            let recording = directory.appendingPathComponent("got.h264").path
            let result = try reel("rtp", "receive", "--sdp", sdp, "--transport", "tcp", "--server", "127.0.0.1:\(server.port)", "--record", recording, timeout: 60)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"received\" : \(packets.count)"))
            try Self.expectSameFrames(recording, as: sent, "TCP (RFC 4571)")
        }

        @Test func udpHelloAndHeartbeatsThroughAStall() throws {
            let directory = try Paths.temporaryDirectory()
            let (sent, packets, sdp) = try Self.stream(directory)
            let server = try StreamServers.HelloServer(packets: packets, stall: 2.5)
            let recording = directory.appendingPathComponent("got.h264").path
            let receiver = try RTPStreams.Receiver(["--sdp", sdp, "--transport", "hello", "--server", "127.0.0.1:\(server.socket.port)",
                                                    "--heartbeat-interval", "0.25", "--idle-timeout", "4", "--record", recording], directory: directory)
            server.waitUntilSent()
            let counts = RTPStreams.packetCounts(try receiver.report())
            #expect(server.firstMessage == "hello")
            // 2.5 s of silence from the server at one heartbeat per 0.25 s: 10 on time. A receiver
            // that stops sending them sends 0 or 1; a loaded machine delays each one a little, and
            // the next is scheduled a whole interval after it is sent.
            #expect(server.heartbeatsDuringStall >= 5, "\(server.heartbeatsDuringStall) heartbeats during the stall")
            #expect(counts["received"] == packets.count && counts["lost"] == 0, "\(counts)")
            try Self.expectSameFrames(recording, as: sent, "UDP hello/heartbeat")
            print("RTP hello: \(server.heartbeatsDuringStall) heartbeats while the server stalled 2.5 s; the stream resumed")
        }

        @Test func ipv6Loopback() throws {
            let directory = try Paths.temporaryDirectory()
            let sent = try RTPStreams.sent("zerolatency")
            let port = try RTPStreams.freePortPair()
            let sdp = try RTPStreams.writeSDP(for: sent, to: "rtp://[::1]:\(port)", in: directory)
            #expect(try String(contentsOfFile: sdp, encoding: .utf8).contains("IN IP6 ::1"))
            let recording = directory.appendingPathComponent("got.h264").path
            let receiver = try RTPStreams.Receiver(["--sdp", sdp, "--record", recording, "--idle-timeout", "1.5"], directory: directory)
            try RTPStreams.waitUntilBound(port)
            #expect(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", sent, "-c", "copy", "-f", "rtp", "rtp://[::1]:\(port)"]).status == 0)
            _ = try receiver.report()
            try Self.expectSameFrames(recording, as: sent, "UDP/IPv6")
        }
    }
}
