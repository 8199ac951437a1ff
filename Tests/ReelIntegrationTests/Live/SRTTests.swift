import Foundation
import Testing

extension ServerPlaybackTests {
    /// SRT through ffmpeg's libsrt on loopback: Reel as caller and as listener, the pictures
    /// against ffmpeg's decode of the file sent, and a wrong passphrase.
    @Suite(.serialized) struct SRTTests {
        private func hashes(_ framemd5: String) -> [Substring] {
            framemd5.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last?.drop { $0 == " " } }
        }

        private func port() -> Int { LocalPorts.random() }

        /// ffmpeg sending `file` twice in real time as MPEG-TS to `url`: the first copy is
        /// compared, whatever the close of the connection does to the last packets (SRT's
        /// live mode may drop what is unsent then).
        private func send(_ file: String, to url: String) throws -> BackgroundProcess {
            try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-re", "-stream_loop", "1", "-i", file, "-c", "copy", "-f", "mpegts", url])
        }

        @Test(.timeLimit(.minutes(2))) func everyPictureArrivesAsCallerAndTheSendersCloseIsTheEnd() throws {
            let file = try RTSPServerTests.clip()
            let expected = hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]).stdout)
            let port = port()
            let sender = try send(file, to: "srt://127.0.0.1:\(port)?mode=listener")
            defer { sender.stop() }
            try waitForUDPListener(on: port, sender)
            let received = try reel("decode", "--framemd5", "srt://127.0.0.1:\(port)?mode=caller", timeout: 60)
            #expect(received.status == 0, "\(received.stderr)")
            let pictures = hashes(received.stdout)
            #expect(Array(pictures.prefix(expected.count)) == expected, "\(pictures.count) pictures received; the file has \(expected.count)")
        }

        @Test(.timeLimit(.minutes(2))) func playsAsListener() throws {
            let file = try RTSPServerTests.clip()
            let port = port()
            let directory = try Paths.temporaryDirectory()
            let report = directory.appendingPathComponent("report.json").path
            let listening = try BackgroundProcess(Paths.reel, ["play", "--headless", "--untimed", "--stats", "--reconnect-for", "0", "srt://127.0.0.1:\(port)?mode=listener"], outputPath: report)
            defer { listening.stop() }
            try waitForUDPListener(on: port, listening)
            let sender = try send(file, to: "srt://127.0.0.1:\(port)?mode=caller")
            defer { sender.stop() }
            #expect(listening.waitForExit(within: 30), "the listener did not end with the sender")
            #expect(listening.exitStatus == 0)
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            let shown = (json?["statistics"] as? [String: Any])?["frames_shown"] as? Int ?? 0
            #expect(shown >= 99, "\(shown) frames shown of the 100 sent")
        }

        @Test(.timeLimit(.minutes(1))) func aWrongPassphraseIsOneClearLineAndNoSecret() throws {
            let port = port()
            let sender = try send(try RTSPServerTests.clip(), to: "srt://127.0.0.1:\(port)?mode=listener&passphrase=correct-horse-1")
            defer { sender.stop() }
            try waitForUDPListener(on: port, sender)
            let refused = try reel("probe", "srt://127.0.0.1:\(port)?mode=caller&passphrase=wrong-horse-22", timeout: 30)
            #expect(refused.status == 1)
            let ours = refused.stderr.split(separator: "\n").filter { $0.hasPrefix("reel: ") }
            #expect(ours.count == 1 && ours[0].contains("a wrong or missing passphrase"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("wrong-horse-22"), "the passphrase was printed: \(refused.stderr)")
        }
    }
}
