import Foundation
import Testing

extension ServerPlaybackTests {
    /// `reel play --record` against nginx-rtmp fed by ffmpeg with a known file: what is
    /// recorded decodes, picture for picture, as a stretch of the file published, in one
    /// file, in segments, and after a SIGKILL.
    @Suite(.serialized) struct RecordingTests {
        /// 20 s at 25 fps, a keyframe each second, B-frames, with sound.
        /// 20 s of 320×240 H.264 (a keyframe a second, B-frames) and AAC, as FLV takes them.
        static func published() throws -> String {
            try Fixtures.made("record-source-20s.mp4", [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=20", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=20",
                "-c:v", "libx264", "-g", "25", "-bf", "2", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        }

        private func pictureHashes(_ path: String) throws -> [Substring] {
            let result = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-map", "0:v", "-f", "framemd5", "-"])
            return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last?.drop { $0 == " " } }
        }

        /// Where `recorded` starts in `source` if it is a run of its pictures with none
        /// missing. A recording stops after a packet in decode order, so the B-frames that
        /// follow its last P-frame in that order are not in it and the last pictures skip
        /// them: the last `bFrames` need only be pictures of the source after the run.
        private func startOfRun(_ recorded: [Substring], in source: [Substring], bFrames: Int = 2) -> Int? {
            guard let first = recorded.first, let start = source.firstIndex(of: first) else { return nil }
            let body = recorded.dropLast(bFrames)
            guard Array(source[start...].prefix(body.count)) == Array(body) else { return nil }
            let after = source[(start + body.count)...]
            return recorded.suffix(bFrames).allSatisfy(after.contains) ? start : nil
        }

        /// ffmpeg reads `path` to its end without an error line.
        private func readsCleanly(_ path: String) throws -> String {
            try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "null", "-"]).stderr
        }

        /// How the published stream reaches the player: RTMP, nginx's HLS of it, or nginx's
        /// live HLS ladder of it (a master playlist of two variants, each the file).
        enum Route { case rtmp, hls, hlsLadder }

        /// Plays the published stream with `arguments` for `seconds` counted from when the
        /// recording's first file (`firstFile`) appears, since opening an RTMP input takes
        /// a varying time on a loaded machine; then stops it with `signal`.
        private func recordLive(_ arguments: [String], firstFile: String, seconds: Double, signal: Int32 = SIGINT,
                                over route: Route = .rtmp) throws -> (status: Int32?, stdout: String, stderr: String) {
            let server = try RTMPServer()
            defer { server.stop() }
            let publisher = route == .hlsLadder ? try publishLadder(try Self.published(), to: server, name: "ladder")
                : try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", try Self.published(), "-c", "copy", "-f", "flv", server.url()])
            defer { publisher.stop() }
            try server.waitForPublisher(publisher)
            let url: String
            switch route {
            case .rtmp: url = server.url()
            case .hls:
                try waitFor("two HLS fragments", while: publisher) { server.hlsHasFragments(2) }
                url = server.hlsURL()
            case .hlsLadder:
                try waitFor("two HLS fragments of each variant", while: publisher) {
                    server.hlsHasFragments(2, name: "ladder_low") && server.hlsHasFragments(2, name: "ladder_high")
                }
                url = server.hlsURL("ladder")
            }
            let directory = try Paths.temporaryDirectory()
            let (output, errors) = (directory.appendingPathComponent("stdout.txt").path, directory.appendingPathComponent("stderr.txt").path)
            let player = try BackgroundProcess(Paths.reel, ["play", "--headless"] + arguments + [url], outputPath: output, errorPath: errors)
            defer { player.stop() }
            try waitFor("recording \(firstFile)", while: player) { FileManager.default.fileExists(atPath: firstFile) }
            Thread.sleep(forTimeInterval: seconds)
            if signal == SIGKILL { player.kill() } else { player.interrupt() }
            _ = player.waitForExit(within: 10)
            let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
            return (player.exitStatus, read(output), read(errors))
        }

        @Test(.timeLimit(.minutes(1))) func aRecordingIsAStretchOfThePublishedPictures() throws {
            let file = try Paths.temporaryDirectory().appendingPathComponent("live.mkv").path
            let run = try recordLive(["--record", file], firstFile: file, seconds: 4)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try readsCleanly(file) == "")
            let recorded = try pictureHashes(file)
            let start = startOfRun(recorded, in: try pictureHashes(try Self.published()))
            print("recorded \(recorded.count) pictures, from picture \(start.map(String.init) ?? "none") of the published file")
            // The file is created when recording starts, its first picture is the next
            // keyframe (one a second): 4 s hold at least 3 s of pictures less the last
            // B-frames (73), and a loaded machine may deliver the last second late.
            #expect(recorded.count >= 50 && start != nil, "\(recorded.count) pictures, a run of the source: \(start != nil)")
        }

        @Test(.timeLimit(.minutes(1))) func segmentsFollowOneAnotherWithNoPictureLost() throws {
            let directory = try Paths.temporaryDirectory()
            let run = try recordLive(["--record", directory.appendingPathComponent("seg.ts").path, "--record-segment", "2"],
                                     firstFile: directory.appendingPathComponent("seg-000.ts").path, seconds: 6.5)
            #expect(run.status == 0, "\(run.stderr)")
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("seg-") }.sorted()
            #expect(files.count >= 3 && files.first == "seg-000.ts", "\(files)")
            var all: [Substring] = []
            for name in files {
                let path = directory.appendingPathComponent(name).path
                #expect(try readsCleanly(path) == "", "\(name)")
                let pictures = try pictureHashes(path)
                if name != files.last { #expect((49...51).contains(pictures.count), "\(name): \(pictures.count) pictures in a 2 s segment") }
                all += pictures
            }
            print("segments: \(files.count) files, \(all.count) pictures in all")
            #expect(startOfRun(all, in: try pictureHashes(try Self.published())) != nil, "the segments together are one run of the source")
        }

        @Test(.timeLimit(.minutes(1))) func aKilledRecorderLeavesAnMP4ThatPlays() throws {
            let file = try Paths.temporaryDirectory().appendingPathComponent("killed.mp4").path
            _ = try recordLive(["--record", file], firstFile: file, seconds: 4, signal: SIGKILL)
            #expect(try readsCleanly(file) == "")
            let recorded = try pictureHashes(file)
            print("killed: \(recorded.count) pictures play from the fragmented MP4")
            let source = try pictureHashes(try Self.published())
            // At least a second of pictures: the first waits for a keyframe (up to 1 s), the
            // fragments not yet written when it is killed are lost, and a loaded CI run kept 25.
            #expect(recorded.count >= 25 && startOfRun(recorded, in: source) != nil, "\(recorded.count) pictures")
        }

        /// nginx's HLS out of the published stream, a media playlist or the live ladder (a
        /// master playlist of two variants, which the policy keeps on FFmpeg: GStreamer's
        /// engine would adapt but not play live): played live by FFmpeg, and what was
        /// recorded from it is a run of the published pictures.
        @Test(.timeLimit(.minutes(1)), arguments: [Route.hls, .hlsLadder])
        func nginxsHLSPlaysLiveAndRecordsAsARunOfThePublishedPictures(over route: Route) throws {
            let directory = try Paths.temporaryDirectory()
            let file = directory.appendingPathComponent("hls.mkv").path
            let run = try recordLive(["--record", file, "--stats"], firstFile: file, seconds: 5, over: route)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains(" live "), "not played as live: \(run.stderr.suffix(400))")
            let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            #expect((report?["statistics"] as? [String: Any])?["engine"] as? String == "ffmpeg", "\(run.stdout)")
            #expect(try readsCleanly(file) == "")
            let recorded = try pictureHashes(file)
            let start = startOfRun(recorded, in: try pictureHashes(try Self.published()))
            print("\(route == .hls ? "HLS" : "live HLS ladder") out of nginx: recorded \(recorded.count) pictures, from picture \(start.map(String.init) ?? "none") of the published file")
            #expect(recorded.count >= 75 && start != nil, "\(recorded.count) pictures, a run of the source: \(start != nil)")
        }

        @Test(.timeLimit(.minutes(1))) func aReconnectStartsTheNextFile() throws {
            let server = try RTMPServer()
            defer { server.stop() }
            var publisher = try publishTestStream(to: server.url())
            defer { publisher.stop() }
            let directory = try Paths.temporaryDirectory()
            let errors = directory.appendingPathComponent("stderr.txt").path
            let player = try BackgroundProcess(Paths.reel, ["play", "--headless", "--record", directory.appendingPathComponent("cam.mkv").path, server.url()],
                                               errorPath: errors)
            defer { player.stop() }
            Thread.sleep(forTimeInterval: 5)
            publisher.stop()
            Thread.sleep(forTimeInterval: 0.5)
            publisher = try publishTestStream(to: server.url())
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline, !((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains("reconnected after") {
                Thread.sleep(forTimeInterval: 0.05)
            }
            Thread.sleep(forTimeInterval: 3)
            player.interrupt()
            #expect(player.waitForExit(within: 10) && player.exitStatus == 0, "\((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("cam") }.sorted()
            #expect(files == ["cam-001.mkv", "cam.mkv"], "\(files)")
            for name in files {
                let path = directory.appendingPathComponent(name).path
                #expect(try readsCleanly(path) == "", "\(name)")
                let pictures = try pictureHashes(path).count
                print("\(name): \(pictures) pictures")
                #expect(pictures >= 25, "\(name): \(pictures) pictures")
            }
        }

        @Test func aNameWithoutAContainerOrAPlaceToWriteIsOneLine() throws {
            let clip = try Fixtures.shortTransportStream()
            for (path, expected) in [("/tmp/out.nosuchcontainer", "no container"), ("/no/such/directory/out.mkv", "No such file or directory")] {
                let result = try reel("play", "--headless", "--record", path, clip)
                #expect(result.status != 0, "\(path)")
                let lines = result.stderr.split(separator: "\n")
                #expect(lines.count == 1 && lines[0].contains("--record") && lines[0].contains(expected), "\(result.stderr)")
            }
        }

        /// A disk that fills up (/dev/full) stops the recording, not playback: a line says
        /// so while it plays to its end, and the exit status says the recording failed.
        @Test func aFullDiskStopsTheRecordingNotPlayback() throws {
            let directory = try Paths.temporaryDirectory()
            let full = directory.appendingPathComponent("full.ts").path
            try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: "/dev/full")
            let result = try reel("play", "--headless", "--stats", "--record", full, try Fixtures.shortTransportStream())
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("recording stopped, playback goes on") && result.stderr.contains("No space left on device"), "\(result.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect((report?["statistics"] as? [String: Any])?["frames_shown"] as? Int == 50, "\(result.stdout)")
        }
    }
}
