import Foundation
import Testing

extension ServerPlaybackTests {
    /// What `reel encode` publishes is what it encoded: one encode written to a live output
    /// and to a file beside it (`-o URL -o FILE`); ffmpeg reads the stream back (from
    /// nginx-rtmp, or as SRT's caller) and its pictures are, hash for hash, a run of the
    /// file's that goes on to the file's end.
    @Suite(.serialized) struct PublishedStreamTests {
        private func hashes(_ input: String, _ options: [String] = []) throws -> [Substring] {
            let result = try Processes.run("ffmpeg", ["-v", "error", "-nostdin"] + options + ["-i", input, "-map", "0:v", "-f", "framemd5", "-"], timeout: 60)
            #expect(result.status == 0, "\(result.stderr.suffix(800))")
            return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last?.drop { $0 == " " } }
        }

        /// Publishes 4 s of the camera to `url` and to an MP4 beside it, reads the stream
        /// with ffmpeg once `connected` says the publisher is there, and compares.
        private func check(_ url: String, reading: String, readingOptions: [String] = [], connected: (BackgroundProcess) throws -> Void) throws {
            let file = try Paths.temporaryDirectory().appendingPathComponent("beside.mp4").path
            let publisher = try BackgroundProcess(Paths.reel, ["encode", "--camera", "640x360@30", "--realtime", "--bitrate", "800k", "--gop", "30",
                                                               "--duration", "4", "-o", url, "-o", file])
            defer { publisher.stop() }
            try connected(publisher)
            let read = try hashes(reading, readingOptions)
            #expect(publisher.waitForExit(within: 30) && publisher.exitStatus == 0, "the publisher did not end well")
            let written = try hashes(file)
            let start = read.first.flatMap { written.firstIndex(of: $0) }
            print("\(url.prefix(4)): ffmpeg read \(read.count) pictures from the stream; the file beside it has \(written.count); the stream's first is the file's \(start ?? -1)")
            #expect(read.count >= 60, "\(read.count) pictures read")
            #expect(start.map { Array(written[$0...]) == read } == true, "the stream's pictures are not the file's last \(read.count)")
        }

        @Test(.timeLimit(.minutes(1))) func rtmpToNginxIsTheFileBesideIt() throws {
            let server = try RTMPServer()
            defer { server.stop() }
            // nginx keeps a player when the publisher leaves: ffmpeg's reading ends after 2 s
            // without data.
            try check(server.url("cam"), reading: server.url("cam"), readingOptions: ["-rw_timeout", "2000000"]) { try server.waitForPublisher($0) }
        }

        /// An SRT receiver holds each packet for its latency and drops what it still holds
        /// when the sender closes (a loaded run lost the last picture at 20 ms): at 200 ms,
        /// six pictures' worth, the publisher's end still waits for all of it to be taken.
        @Test(.timeLimit(.minutes(1))) func srtIsTheFileBesideIt() throws {
            let port = LocalPorts.random()
            try check("srt://127.0.0.1:\(port)?mode=listener&latency=200000", reading: "srt://127.0.0.1:\(port)?mode=caller&latency=200000") {
                try waitForUDPListener(on: port, $0)
            }
        }
    }
}
