import Foundation
import Testing

extension PlaybackTests {
    /// The programs of `Examples/` (the public API alone) run on real inputs, their output
    /// judged by ffmpeg and ffprobe.
    @Suite(.serialized) struct ExamplesTests {
        private func frameCount(_ path: String) throws -> Int {
            let probe = try Processes.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries", "stream=nb_read_frames",
                                                      "-of", "csv=p=0", path])
            return Int(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }

        @Test func thePlayerPlaysAFileToItsEnd() throws {
            let clip = try FrameTapTests.clip()
            let result = try Processes.run(Paths.example("player"), [clip, "--headless"], timeout: 30)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n")
            // The first frame may be shown before or after play() moves the state on.
            let states = lines.filter { $0.hasPrefix("state: ") }
            #expect(states.prefix(3) == ["state: opening", "state: ready", "state: playing"] && lines.contains { $0.hasPrefix("first frame after") }, "\(lines)")
            // A late frame may be skipped on a loaded machine, as in any player.
            let frames = try frameCount(clip)
            let shown = lines.last.flatMap { $0.split(separator: " ").dropLast(2).last }.flatMap { Int($0) } ?? -1
            // The position stands still from the end on; where it stopped is the sound
            // card's clock when the last samples went out, within half a frame of 3 s.
            let ended = lines.last.flatMap { $0.split(separator: " ").dropFirst(2).first }.flatMap { Double($0) } ?? -1
            #expect(lines.last?.hasPrefix("ended at ") == true && abs(ended - 3) <= 0.02 && shown <= frames && shown >= frames - 2, "\(lines.last ?? "") of \(frames) frames")
            let missing = try Processes.run(Paths.example("player"), ["/nonexistent.mp4", "--headless"], timeout: 30)
            #expect(missing.status == 1 && missing.stderr.contains("example-player: cannot open '/nonexistent.mp4'"), "\(missing.stderr)")
        }

        /// Each line's histogram and mean are those of the frame ffmpeg decodes at that time.
        @Test func theLumaHistogramsAreThoseOfFFmpegsDecode() throws {
            let clip = try FrameTapTests.clip()
            let result = try Processes.run(Paths.example("luma-histogram"), [clip], timeout: 30)
            #expect(result.status == 0, "\(result.stderr)")
            let raw = try Paths.temporaryDirectory().appendingPathComponent("decoded.yuv")
            #expect(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", clip, "-map", "0:v:0", "-f", "rawvideo", "-pix_fmt", "yuv420p", raw.path]).status == 0)
            let decoded = try Data(contentsOf: raw)
            let (width, height) = (320, 240), frameSize = 320 * 240 * 3 / 2
            var matched = 0
            for line in result.stdout.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count == 18, let seconds = Double(fields[0]) else {
                    Issue.record("unexpected line \(line)")
                    continue
                }
                let index = Int((seconds * 25).rounded())
                guard (index + 1) * frameSize <= decoded.count else {
                    Issue.record("no decoded frame at \(seconds) s")
                    continue
                }
                var bins = [Int](repeating: 0, count: 16), total = 0
                for value in decoded[index * frameSize..<index * frameSize + width * height] {
                    bins[Int(value >> 4)] += 1
                    total += Int(value)
                }
                let expected = String(format: "%.3f ", Double(total) / Double(width * height)) + bins.map(String.init).joined(separator: " ")
                #expect(fields.dropFirst().joined(separator: " ") == expected, "frame \(index)")
                matched += 1
            }
            // Playback is untimed; a consumer too slow for it would lose frames, and says so.
            let lost = result.stderr.split(separator: " ").dropFirst(2).first.flatMap { Int($0) } ?? -1
            #expect(matched + lost == decoded.count / frameSize && matched > 0, "\(matched) frames matched, \(result.stderr)")
        }

        /// The recording holds every frame sent, as ffmpeg decodes them from the stream.
        @Test func theRTPRecorderKeepsEveryFrameSent() throws {
            let directory = try Paths.temporaryDirectory()
            let sent = try RTPStreams.sent("b-frames")
            let port = try RTPStreams.freePortPair()
            let sdp = try RTPStreams.writeSDP(for: sent, to: "rtp://127.0.0.1:\(port)", in: directory)
            let recording = directory.appendingPathComponent("camera.mp4").path
            let recorder = try BackgroundProcess(Paths.example("rtp-recorder"), [sdp, recording, "1.5"],
                                                 outputPath: directory.appendingPathComponent("out").path, errorPath: directory.appendingPathComponent("err").path)
            try RTPStreams.waitUntilBound(port)
            #expect(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", sent, "-c", "copy", "-f", "rtp", "rtp://127.0.0.1:\(port)"]).status == 0)
            for _ in 0..<200 where recorder.isRunning { Thread.sleep(forTimeInterval: 0.05) }
            #expect(recorder.exitStatus == 0)
            let output = try String(contentsOf: directory.appendingPathComponent("out"), encoding: .utf8)
            #expect(output.hasPrefix("recorded 75 access units") && output.contains(", 0 lost)"), "\(output)")
            #expect(try RTPStreams.frameHashes(recording) == (try RTPStreams.frameHashes(sent)))
        }

        /// ffmpeg, listening before the camera starts, decodes every frame the example sends.
        @Test func theCameraIsReceivedByFFmpeg() throws {
            let directory = try Paths.temporaryDirectory()
            let port = try RTPStreams.freePortPair()
            let listening = directory.appendingPathComponent("listen.sdp").path
            try ["v=0", "o=- 0 0 IN IP4 127.0.0.1", "s=-", "c=IN IP4 127.0.0.1", "t=0 0", "m=video \(port) RTP/AVP 96",
                 "a=rtpmap:96 H264/90000", "a=fmtp:96 packetization-mode=1", ""].joined(separator: "\r\n").write(toFile: listening, atomically: true, encoding: .utf8)
            let checksums = directory.appendingPathComponent("received.framemd5").path
            let receiver = try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-protocol_whitelist", "file,udp,rtp", "-i", listening,
                                                            "-f", "framemd5", checksums])
            defer { receiver.stop() }
            try RTPStreams.waitUntilBound(port)
            let sdp = directory.appendingPathComponent("camera.sdp").path
            let result = try Processes.run(Paths.example("camera-rtp"), ["rtp://127.0.0.1:\(port)", sdp, "3"], timeout: 60)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("sent 75 frames (0 dropped)"), "\(result.stdout)")
            // The example's BYE ends ffmpeg's input: it writes what it decoded and exits.
            for _ in 0..<200 where receiver.isRunning { Thread.sleep(forTimeInterval: 0.05) }
            let received = ((try? String(contentsOfFile: checksums, encoding: .utf8)) ?? "").split(separator: "\n").filter { !$0.hasPrefix("#") }
            #expect(receiver.exitStatus == 0 && received.count == 75, "ffmpeg decoded \(received.count) of 75 frames")
            // The SDP the example wrote carries the parameter sets a receiver needs.
            let described = try String(contentsOfFile: sdp, encoding: .utf8)
            #expect(described.contains("a=rtpmap:96 H264/90000") && described.contains("sprop-parameter-sets="), "\(described)")
        }
    }
}

/// `example-vap-greeting` fuses a name and an avatar as `reel vap render` does.
@Suite struct VAPGreetingExampleTests {
    @Test func theGreetingMatchesReelVAPRender() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let gift = try VAPCommandTests.fixture("vapx.mp4")
        let avatar = directory.appendingPathComponent("avatar.png").path
        #expect(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=size=128x128", "-frames:v", "1", avatar]).status == 0)
        let example = directory.appendingPathComponent("example")
        let result = try Processes.run(Paths.example("vap-greeting"), [gift, "Reel", avatar, example.path], timeout: 300)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("240 frames of 672x1504 with 2 fused sources"), "\(result.stdout)")
        let rendered = directory.appendingPathComponent("reel")
        #expect(try reel("vap", "render", gift, "--text", "[sTxt1]=Reel", "--image", "[sImg1]=\(avatar)", "-o", rendered.path + "/%04d.png", timeout: 300).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: example.path).sorted()
        let renderedNames = try FileManager.default.contentsOfDirectory(atPath: rendered.path).sorted()
        #expect(names.count == 240 && names == renderedNames)
        let differing = names.filter { name in
            (try? Data(contentsOf: example.appendingPathComponent(name))) != (try? Data(contentsOf: rendered.appendingPathComponent(name)))
        }
        #expect(differing.isEmpty, "\(differing.count) PNGs differ, the first \(differing.first ?? "")")
    }
}
