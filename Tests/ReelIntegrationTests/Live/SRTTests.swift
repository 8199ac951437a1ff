import Foundation
import Testing

extension ServerPlaybackTests {
    /// SRT through ffmpeg's libsrt on loopback: Reel as caller and as listener, the pictures
    /// against ffmpeg's decode of the file sent, and a wrong passphrase.
    @Suite(.serialized) struct SRTTests {
        private func port() -> Int { LocalPorts.random() }

        /// ffmpeg sending `file` twice in real time as MPEG-TS to `url`: the first copy is
        /// compared, whatever the close of the connection does to the last packets (SRT's
        /// live mode may drop what is unsent then).
        private func send(_ file: String, to url: String, loops: Int = 1, seconds: Int? = nil) throws -> BackgroundProcess {
            try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-re", "-stream_loop", String(loops), "-i", file, "-c", "copy"]
                + (seconds.map { ["-t", String($0)] } ?? []) + ["-f", "mpegts", url])
        }

        @Test(.timeLimit(.minutes(2))) func everyPictureArrivesAsCallerAndTheSendersCloseIsTheEnd() throws {
            let file = try RTSPServerTests.clip()
            let expected = frameMD5Hashes(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-map", "0:v", "-f", "framemd5", "-"]).stdout)
            let port = port()
            let sender = try send(file, to: "srt://127.0.0.1:\(port)?mode=listener")
            defer { sender.stop() }
            try waitForUDPListener(on: port, sender)
            let received = try reel("decode", "--framemd5", "srt://127.0.0.1:\(port)?mode=caller", timeout: 60)
            #expect(received.status == 0, "\(received.stderr)")
            let pictures = frameMD5Hashes(received.stdout)
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

        /// The sender (ffmpeg, the listener) ended and started again, twice: Reel, the
        /// caller, takes the loss as the stream's end, calls again with back-off, and shows
        /// a picture within 2 s of the listener's return. A sender that ends (after 4 s)
        /// closes its connection; one killed leaves it to libsrt's 5 s without a packet
        /// from the peer (its peer idle timeout, which FFmpeg 5.1's libsrt options cannot
        /// set), so the loss is noticed that long after the kill (the cycle waits for it);
        /// its bound is 5 s longer.
        @Test(.timeLimit(.minutes(2)), arguments: ["closed", "killed"]) func aSenderThatRestartsIsCalledAgain(ending: String) throws {
            let file = try RTSPServerTests.clip()
            let port = port()
            let listener = "srt://127.0.0.1:\(port)?mode=listener"
            let start = { try self.send(file, to: listener, loops: -1, seconds: ending == "closed" ? 4 : nil) }
            var sender = try start()
            defer { sender.stop() }
            try waitForUDPListener(on: port, sender)
            let cycles = try ReconnectCycles(url: "srt://127.0.0.1:\(port)?mode=caller", cycles: 2) {
                if ending == "killed" {
                    sender.kill()
                } else {
                    try #require(sender.waitForExit(within: 15), "the sender did not end after its 4 s")
                }
            } bringBack: {
                sender = try start()
                try waitForUDPListener(on: port, sender)
            }
            print(cycles.line("SRT listener (\(ending))"))
            let bound = ending == "killed" ? 7.0 : 2
            #expect(cycles.resumes.count >= 2 && cycles.resumed(within: bound), "\(cycles.resumes)\n\(cycles.log)")
            #expect(cycles.statistics["reconnects"] as? Int == cycles.resumes.count, "\(cycles.statistics)")
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
