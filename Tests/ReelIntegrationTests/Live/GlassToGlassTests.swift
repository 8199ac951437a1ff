import Foundation
import Testing

extension PlaybackTests {
    /// The latency meter: `reel encode --camera --timecode` draws the capture time, `reel
    /// latency` and `reel play --measure-latency` read it. The oracle is the test's own wall
    /// clock around each step, and a delay the player is told to add.
    @Suite(.serialized) struct GlassToGlassTests {
        private func summary(_ json: String) throws -> [String: Double] {
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
            return object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
        }

        /// `reel encode --camera 640x360@30 --timecode` publishing to `server` as `cam`, once
        /// nginx holds its connection.
        private func publishCamera(to server: RTMPServer) throws -> BackgroundProcess {
            let camera = try BackgroundProcess(Paths.reel, ["encode", "--camera", "640x360@30", "--timecode", "--realtime", "--bitrate", "800k", "--gop", "30",
                                                            "-o", server.url("cam")])
            try server.waitForPublisher(camera)
            return camera
        }

        private func glass(_ report: String) throws -> [String: Double] {
            let object = try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any]
            let glass = (object?["statistics"] as? [String: Any])?["glass_to_glass"] as? [String: Any] ?? [:]
            return glass.compactMapValues { ($0 as? NSNumber)?.doubleValue }
        }

        /// Every picture of 3 s at 500 kbit/s is read back through ffmpeg's decode, and each
        /// age lies between what the wall clock allows: read after the encode ended and
        /// captured after it began.
        @Test(.timeLimit(.minutes(1))) func theTimecodeSurvives500kbitAndIsTheCaptureClock() throws {
            let directory = try Paths.temporaryDirectory()
            let file = directory.appendingPathComponent("cam.mp4").path
            let encodeStart = Date()
            let encoded = try reel("encode", "--camera", "1280x720@30", "--timecode", "--bitrate", "500k", "--realtime", "--duration", "3", "-o", file)
            let encodeEnd = Date()
            try #require(encoded.status == 0, "\(encoded.stderr)")
            let readStart = Date()
            let read = try Processes.run("/bin/bash", ["-o", "pipefail", "-c", "ffmpeg -v error -nostdin -i '\(file)' -f yuv4mpegpipe - | '\(Paths.reel)' latency"])
            let readEnd = Date()
            try #require(read.status == 0, "\(read.stderr)")
            let result = try summary(read.stdout)
            print("500 kbit/s: \(read.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
            #expect(result["pictures"] == 90 && result["unreadable"] == 0 && result["dropped"] == 0, "\(result)")
            let lowest = readStart.timeIntervalSince(encodeEnd), highest = readEnd.timeIntervalSince(encodeStart)
            #expect(result["min", default: -1] >= lowest - 0.01 && result["max", default: 99] <= highest + 0.01, "\(result) outside \(lowest)…\(highest)")
            // The codes are 3 s of captures, read within the reading's span.
            let span = result["max", default: 0] - result["min", default: 0], reading = readEnd.timeIntervalSince(readStart)
            #expect(span >= 89.0 / 30 - reading - 0.05 && span <= 89.0 / 30 + reading + 0.05, "span \(span), reading \(reading)")
        }

        /// Camera → nginx-rtmp → `reel play --measure-latency`, told to play 0.5 s behind the
        /// newest media: the meter finds those 0.5 s and the transport's few milliseconds.
        /// The players here stop after 150 pictures (2 s of warm-up, then about 90 measured),
        /// not after seconds of the wall clock: a loaded machine's player, slow to connect,
        /// measured fewer than 60 in 7 s.
        @Test(.timeLimit(.minutes(1))) func thePlayerMeasuresTheDelayItIsToldToKeep() throws {
            let server = try RTMPServer()
            defer { server.stop() }
            let camera = try publishCamera(to: server)
            defer { camera.stop() }
            let played = try reel("play", "--headless", "--stats", "--measure-latency", "--latency-warmup", "2", "--latency", "0.5", "--frames", "150",
                                  server.url("cam"))
            #expect(played.status == 0, "\(played.stderr.suffix(1500))")
            let result = try glass(played.stdout)
            print("RTMP, --latency 0.5: \(result)")
            #expect(result["pictures", default: 0] >= 60 && result["unreadable"] == 0, "\(result)")
            #expect((0.48...0.75).contains(result["p50", default: 0]), "\(result)")
            #expect(played.stderr.contains("reel: glass-to-glass latency p50"), "\(played.stderr.suffix(800))")
        }

        /// `reel encode -o srt://` to `reel play srt://`, playing at the live edge.
        @Test(.timeLimit(.minutes(1))) func reelToReelOverSRTIsFast() throws {
            let port = LocalPorts.random()
            let camera = try BackgroundProcess(Paths.reel, ["encode", "--camera", "640x360@30", "--timecode", "--realtime", "--bitrate", "800k", "--gop", "30",
                                                            "-o", "srt://127.0.0.1:\(port)?mode=listener&latency=20000"])
            defer { camera.stop() }
            try waitForUDPListener(on: port, camera)
            let played = try reel("play", "--headless", "--stats", "--measure-latency", "--latency-warmup", "2", "--latency", "0", "--frames", "150",
                                  "srt://127.0.0.1:\(port)?mode=caller&latency=20000")
            #expect(played.status == 0, "\(played.stderr.suffix(1500))")
            let result = try glass(played.stdout)
            print("SRT, --latency 0: \(result)")
            #expect(result["pictures", default: 0] >= 60 && result["unreadable"] == 0, "\(result)")
            #expect(result["p50", default: 1] < 0.15, "\(result)")
        }

        /// `reel encode -o rtp://` to `reel play stream.sdp` (Reel's receiver) at the live
        /// edge: the receiver gathers datagrams for no longer than the player's target
        /// allows (it held them 50 ms: 64 ms from glass to glass before, 27 ms since).
        @Test(.timeLimit(.minutes(1))) func reelToReelOverRTPIsFast() throws {
            let directory = try Paths.temporaryDirectory()
            let sdp = directory.appendingPathComponent("camera.sdp").path
            let port = LocalPorts.random()
            let cameraLog = directory.appendingPathComponent("camera.log").path
            let camera = try BackgroundProcess(Paths.reel, ["encode", "--camera", "640x360@30", "--timecode", "--realtime", "--bitrate", "800k", "--gop", "30",
                                                            "-o", "rtp://127.0.0.1:\(port)", "--sdp", sdp], errorPath: cameraLog)
            defer { camera.stop() }
            try waitFor("the camera's SDP", while: camera) { FileManager.default.fileExists(atPath: sdp) }
            let played = try reel("play", "--headless", "--stats", "--measure-latency", "--latency-warmup", "2", "--latency", "0", "--frames", "150", sdp)
            #expect(played.status == 0, "\(played.stderr.suffix(1500))")
            let result = try glass(played.stdout)
            print("RTP, --latency 0: \(result)")
            #expect(result["pictures", default: 0] >= 60 && result["unreadable"] == 0, "\(result)")
            // A hunt saw 470 ms once (rising through the run, nothing dropped): the player's whole
            // report and the camera's live line say where, should it come again.
            let report = (try? JSONSerialization.jsonObject(with: Data(played.stdout.utf8)) as? [String: Any])?["statistics"] ?? [:]
            // Within 50 ms: the camera's encode shares the cores (CI's p50 was 18 to 28 ms), and a
            // receiver that held datagrams for its 50 ms batch again measured 64.
            #expect(result["p50", default: 1] < 0.05,
                    "\(result); the player: \(report); its log: \(played.stderr.suffix(1500)); the camera: \(((try? String(contentsOfFile: cameraLog, encoding: .utf8)) ?? "").suffix(600))")
        }

        /// The window path, live: camera → nginx-rtmp → `reel play` in a real window under
        /// Xvfb. Screenshots of the window, read by `reel latency`, carry capture times that
        /// advance with the wall clock and are younger than the screenshot's own delay
        /// allows; the player's meter reads the pictures it presents into the window.
        @Test(.timeLimit(.minutes(2))) func theWindowShowsTheLiveCameraAsItIsCaptured() throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let server = try RTMPServer()
            defer { server.stop() }
            let camera = try publishCamera(to: server)
            defer { camera.stop() }
            let directory = try Paths.temporaryDirectory()
            let report = directory.appendingPathComponent("report.json").path
            let errors = directory.appendingPathComponent("player.log").path
            let player = try BackgroundProcess(Paths.reel, ["play", "--stats", "--measure-latency", "--latency-warmup", "1", "--latency", "0.2", server.url("cam")],
                                               environment: ["DISPLAY": display.name], outputPath: report, errorPath: errors)
            defer { player.stop() }
            let window = try #require(try display.window(titled: "Reel"), "no window: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
            // Past the warm-up: the player's meter has read pictures it presented.
            try #require(waitForText("glass p50", in: errors, timeout: 20) != nil, "\((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
            var ages: [Double] = []
            var takings: [Double] = []
            var shotAt: [Date] = []
            // A loaded CI's screenshot once held no readable code (1 of 5) while the player's
            // meter read every one of the 186 pictures it presented: up to two are taken again.
            var unreadable: [String] = []
            while ages.count < 5 && unreadable.count <= 2 {
                let started = Date()
                let crop = "crop=\(window.width):\(window.height):\(window.x):\(window.y)"
                let dump = directory.appendingPathComponent("screen.xwd").path
                let shot = try Processes.run("/bin/bash", ["-o", "pipefail", "-c",
                    "xwd -root -silent -display \(display.name) > '\(dump)' && ffmpeg -v error -nostdin -i '\(dump)' -vf \(crop),format=yuv420p -f yuv4mpegpipe - | '\(Paths.reel)' latency"])
                let taking = Date().timeIntervalSince(started)
                let read = (try? summary(shot.stdout)) ?? [:]
                if !(shot.status == 0 && read["pictures"] == 1 && read["unreadable"] == 0) { unreadable.append(shot.stderr) }
                if let age = read["p50"] {
                    ages.append(age)
                    takings.append(taking)
                    shotAt.append(started)
                }
                // Not a wait for an event: the screenshots' spacing, which their capture times must follow.
                Thread.sleep(forTimeInterval: 0.4)
            }
            player.interrupt()
            #expect(player.waitForExit(within: 10) && player.exitStatus == 0, "\((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
            let meter = try glass(String(contentsOfFile: report, encoding: .utf8))
            print("live in a window: screenshots' pictures \(ages.map { String(format: "%.3f", $0) }) s old (\(unreadable.count) unreadable); the player's meter \(meter)")
            #expect(ages.count == 5, "\(unreadable.count) screenshots unreadable: \(unreadable)")
            // Presented at most 1 s behind the capture (a 0.2 s target), plus the time a screenshot
            // takes, judged on the median: a loaded CI's first screenshot once held a picture 2.9 s
            // old (the camera or the X server held up for a moment) while the other four were 1.1
            // to 1.7 s old, taking 0.9 s each, and the player's meter never read one over 0.65 s.
            if let medianAge = ages.sorted().dropFirst(ages.count / 2).first, let medianTaking = takings.sorted().dropFirst(takings.count / 2).first {
                #expect(medianAge < 1 + medianTaking, "screenshots' pictures \(ages) s old; taking them took \(takings) s")
            }
            // The capture times advance as the screenshots do: live pictures, not one held (a held
            // one advances by nothing). One late shot may break one pair; a window held for two
            // shots' spacing breaks two.
            if ages.count == 5 {
                let captured = zip(shotAt, ages).map { $0.timeIntervalSince1970 - $1 }
                let advancing = zip(captured, captured.dropFirst()).filter { $1 - $0 > 0.2 }.count
                #expect(advancing >= 3, "captured at \(captured), shot at \(shotAt.map(\.timeIntervalSince1970))")
            }
            #expect(meter["pictures", default: 0] >= 60 && meter["unreadable"] == 0, "\(meter)")
        }

        /// Pictures ffmpeg's `select` filter leaves out of the pipe are counted as dropped, and
        /// `--duration` counts from the first picture: a second of pictures paced in real time
        /// after a pause of 1.5 s is about 30 pictures, not the one the pause would leave.
        @Test(.timeLimit(.minutes(1))) func droppedPicturesAreCountedAndTheDurationStartsAtTheFirstPicture() throws {
            let file = try Paths.temporaryDirectory().appendingPathComponent("cam.mp4").path
            let encoded = try reel("encode", "--camera", "640x360@30", "--timecode", "--bitrate", "500k", "--realtime", "--duration", "3", "-o", file)
            try #require(encoded.status == 0, "\(encoded.stderr)")
            // The camera's own capture times may already have gaps (a capture late on a loaded
            // machine: a hunt run counted 2): the thinned file has 6 more, and 6 pictures fewer.
            func measured(_ filter: String) throws -> [String: Double] {
                let run = try Processes.run("/bin/bash", ["-o", "pipefail", "-c",
                    "ffmpeg -v error -nostdin -i '\(file)' -vf \"\(filter)\" -fps_mode passthrough -f yuv4mpegpipe - | '\(Paths.reel)' latency"])
                try #require(run.status == 0, "\(run.stderr)")
                return try summary(run.stdout)
            }
            let whole = try measured("null")
            let counted = try measured("select='not(between(n,20,24)+eq(n,60))'")
            #expect(whole["pictures"] == 90 && whole["unreadable"] == 0, "\(whole)")
            #expect(counted["pictures"] == 84 && counted["unreadable"] == 0 && counted["dropped"] == whole["dropped", default: -1] + 6, "\(counted) against \(whole)")
            let paced = try Processes.run("/bin/bash", ["-c",
                "(sleep 1.5; ffmpeg -v error -nostdin -re -i '\(file)' -f yuv4mpegpipe -) | '\(Paths.reel)' latency --duration 1"])
            let second = try summary(paced.stdout)
            #expect((15...45).contains(second["pictures", default: 0]), "\(second)")
        }

        @Test func whatCarriesNoTimecodeIsOneLine() throws {
            let text = try Processes.run("/bin/bash", ["-c", "echo hello | '\(Paths.reel)' latency"])
            #expect(text.status == 1 && text.stderr.contains("YUV4MPEG2"), "\(text.stderr)")
            let plain = try Processes.run("/bin/bash", ["-o", "pipefail", "-c",
                                                         "ffmpeg -v error -nostdin -f lavfi -i testsrc2=size=320x240:rate=25:duration=1 -f yuv4mpegpipe - | '\(Paths.reel)' latency"])
            #expect(plain.status == 1 && plain.stderr.contains("none of the 25 pictures carried a readable timecode"), "\(plain.stderr)")
            // A y4m whose pictures are bigger than its header says (GStreamer's y4menc on a
            // decoder's padded buffers) is an error after the first picture, not an end.
            let padded = try Processes.run("/bin/bash", ["-c", "(printf 'YUV4MPEG2 W128 H96 F25:1\\nFRAME\\n'; head -c 18432 /dev/zero; printf 'FRAME\\n'; head -c 20000 /dev/zero) | '\(Paths.reel)' latency"])
            #expect(padded.status == 1 && padded.stderr.contains("not a header or FRAME line"), "\(padded.stderr)")
            let small = try reel("encode", "--camera", "96x96@30", "--timecode", "--duration", "1", "-o", "/tmp/never.mp4")
            #expect(small.status != 0 && small.stderr.contains("too small for a timecode"), "\(small.stderr)")
            let notCamera = try reel("encode", "--timecode", "-i", "x.y4m", "-o", "/tmp/never.mp4")
            #expect(notCamera.status != 0 && notCamera.stderr.contains("--camera"), "\(notCamera.stderr)")
        }
    }
}
