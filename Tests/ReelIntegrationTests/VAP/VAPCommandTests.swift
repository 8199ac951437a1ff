import Foundation
import Reel
import Testing

/// `reel vap info`, `render` and `play` on Tencent's files, judged by ffprobe and ffmpeg.
@Suite struct VAPCommandTests {
    static let fixtures = ["demo.mp4", "special_size_750.mp4", "vapx.mp4"]

    static func fixture(_ name: String) throws -> String { try Paths.sharedFixtures("vap").appendingPathComponent(name).path }

    /// The vapc box's JSON, found by walking the top-level boxes here (not with Reel's reader).
    static func vapcJSON(_ path: String) throws -> Any? {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let box = MP4Patches.topLevelBoxes(data).first(where: { $0.type == "vapc" }) else { return nil }
        return try JSONSerialization.jsonObject(with: data[box.range.lowerBound + 8..<box.range.upperBound])
    }

    @Test(arguments: fixtures)
    func infoReportsTheFilesJSONAndFFprobesFrameCount(_ name: String) throws {
        let path = try Self.fixture(name)
        let result = try reel("vap", "info", "--json", path)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let expected = try Self.vapcJSON(path)
        if let expected {
            #expect((report["vapc"] as? NSDictionary) == (expected as? NSDictionary), "\(name): vapc differs from the file's")
        } else {
            #expect(report["vapc"] is NSNull)
        }
        let probe = try Processes.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", path])
        #expect(report["frames"] as? Int == Int(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let text = try reel("vap", "info", path)
        #expect(text.status == 0 && text.stdout.contains("layout:"))
    }

    @Test func pngSequenceHoldsStraightAlpha() throws {
        let path = try Self.fixture("demo.mp4")
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try reel("vap", "render", path, "-o", directory.appendingPathComponent("%04d.png").path)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".png") }
        #expect(files.count == 80)
        // Frame 40 read back by ffmpeg, premultiplied here, equals the in-memory result.
        let raw = directory.appendingPathComponent("40.rgba").path
        let read = try Processes.run("ffmpeg", ["-v", "error", "-i", directory.appendingPathComponent("0040.png").path, "-f", "rawvideo", "-pix_fmt", "rgba", raw])
        #expect(read.status == 0)
        let straight = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let renderer = try VAPRenderer(path: path)
        try renderer.seek(toFrame: 40)
        let premultiplied = VAPOracle.packed(try #require(try renderer.nextFrame()).picture)
        #expect(straight.count == premultiplied.count)
        var worst = 0, translucent = 0
        for pixel in stride(from: 0, to: min(straight.count, premultiplied.count), by: 4) {
            let alpha = Int(straight[pixel + 3])
            #expect(alpha == Int(premultiplied[pixel + 3]))
            if alpha > 0 && alpha < 255 { translucent += 1 }
            for channel in 0..<3 {
                let back = (Int(straight[pixel + channel]) * alpha + 127) / 255
                // Colour above alpha (see VAPCompositor) cannot survive straight alpha: capped.
                let expected = min(Int(premultiplied[pixel + channel]), alpha)
                worst = max(worst, abs(back - expected))
            }
        }
        #expect(translucent > 1000, "the frame has translucent pixels to test")
        #expect(worst <= 1, "premultiplying the PNG back is off by \(worst)")
    }

    @Test(arguments: [("out.mov", "prores", "yuva444p"), ("out.mov", "png", "rgba"), ("out.webm", "prores", "yuv")])
    func videoFilesKeepAlpha(file: String, codec: String, pixelFormatPrefix: String) throws {
        let path = try Self.fixture("special_size_750.mp4")
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent(file).path
        let result = try reel("vap", "render", path, "-o", output, "--codec", codec, "--alpha", "right")
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try Processes.run("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=codec_type,pix_fmt,width,height,nb_read_frames:stream_tags=alpha_mode", "-of", "json", output])
        let streams = try #require((try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])?["streams"] as? [[String: Any]])
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
        #expect(video["width"] as? Int == 375 && video["height"] as? Int == 814)
        #expect((video["pix_fmt"] as? String)?.hasPrefix(pixelFormatPrefix) == true, "\(video)")
        #expect(Int(video["nb_read_frames"] as? String ?? "") == 119)
        if file.hasSuffix(".webm") {
            #expect((video["tags"] as? [String: String])?["alpha_mode"] == "1", "VP9 without alpha: \(video)")
        } else {
            #expect(streams.contains { $0["codec_type"] as? String == "audio" }, "the MOV has no audio")
        }
        // The alpha decoded back (libvpx for VP9, which keeps it) is the animation's.
        let decoder = file.hasSuffix(".webm") ? ["-c:v", "libvpx-vp9"] : []
        let raw = directory.appendingPathComponent("alpha.gray").path
        let read = try Processes.run("ffmpeg", ["-v", "error"] + decoder + ["-i", output, "-vf", "select=eq(n\\,60),alphaextract", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", raw])
        #expect(read.status == 0, "\(read.stderr)")
        let alpha = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let renderer = try VAPRenderer(path: path, layout: VAPLayout(alpha: .right, videoWidth: 750, videoHeight: 814))
        try renderer.seek(toFrame: 60)
        let expected = VAPOracle.packed(try #require(try renderer.nextFrame()).picture)
        #expect(alpha.count == expected.count / 4)
        let mean = zip(alpha, stride(from: 3, to: expected.count, by: 4).map { expected[$0] }).map { abs(Int($0) - Int($1)) }.reduce(0, +)
        #expect(Double(mean) / Double(max(alpha.count, 1)) < 1.5, "alpha of \(file) differs by \(Double(mean) / Double(max(alpha.count, 1))) on average")
    }

    @Test func headlessPlayLoopsAndReportsEveryFrame() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tapped = directory.appendingPathComponent("shown.y4m").path
        let result = try reel("vap", "play", "--headless", "--fps", "60", "--loops", "2", "--events", "--tap", "y4m:" + tapped, try Self.fixture("demo.mp4"))
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.first?["event"] as? String == "config" && events.first?["frames"] as? Int == 80)
        let frames = events.filter { $0["event"] as? String == "frame" }
        #expect(frames.count == 160)
        #expect(frames.map { $0["index"] as? Int ?? -1 } == Array(0..<80) + Array(0..<80))
        #expect(events.last?["event"] as? String == "completed")
        // 160 frames at 60 per second.
        #expect(result.seconds > 2.5 && result.seconds < 8, "took \(result.seconds) s")
        // The frame tap got every frame shown.
        let probe = try Processes.run("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames,width", "-of", "csv=p=0", tapped])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "736,160", "\(probe.stdout)")
    }

    /// An endless loop ends on Ctrl-C or a TERM as at its end: the completed event, exit 0,
    /// and a tap that holds every frame shown (it used to be killed, the tap cut short).
    @Test(.timeLimit(.minutes(1)), arguments: [SIGINT, SIGTERM])
    func aSignalEndsAnEndlessLoopCleanly(signal: Int32) throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tapped = directory.appendingPathComponent("shown.y4m").path
        let result = try reel("vap", "play", "--headless", "--loops", "0", "--events", "--tap", "y4m:" + tapped, try Self.fixture("demo.mp4"),
                              timeout: 30, signal: ProcessSignal(signal, after: 1, onceOutputHas: "\"frame\""))
        #expect(result.status == 0 && !result.timedOut, "exit \(result.status): \(result.stderr)")
        let events = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.last?["event"] as? String == "completed")
        let shown = events.filter { $0["event"] as? String == "frame" }.count
        #expect(shown > 0)
        let probe = try Processes.run("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", tapped])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(shown)", "\(probe.stdout) frames tapped, \(shown) shown")
    }

    /// The frame tap holds the frames the player showed, as the file player's does: each is
    /// ffmpeg's own composition of the gift (its colour region and its alpha region's luma
    /// `alphamerge`d, as ``VAPOverlayTests`` build it) laid over black by its `overlay`
    /// filter, up to 4:2:0 chroma (48.5 dB its worst frame here; a step off scores 12).
    @Test func theFrameTapHoldsTheFramesShown() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.fixture("demo.mp4")
        let tapped = directory.appendingPathComponent("shown.y4m").path
        let played = try reel("vap", "play", "--headless", "--fps", "60", "--black", "--tap", "y4m:" + tapped, file, timeout: 60)
        #expect(played.status == 0, "\(played.stderr)")
        let layout = try VAPRenderer(path: file).layout
        let (width, height) = (layout.outputWidth, layout.outputHeight)
        let graph = "sws_flags=neighbor+accurate_rnd+full_chroma_int+bitexact;"
            + VAPOverlayTests.giftChain(input: 0, layout: layout, width: width, height: height, label: "G")
            + "[1:v]format=bgra[black];[black][G]overlay=format=rgb:alpha=premultiplied:shortest=1,format=rgb24,settb=1/25,setpts=N[reference];"
            + "[2:v]format=rgb24,settb=1/25,setpts=N[shown];[shown][reference]psnr"
        let compared = try Processes.run("ffmpeg", ["-v", "info", "-nostdin", "-i", file, "-f", "lavfi", "-i", "color=black:s=\(width)x\(height)", "-i", tapped,
                                                    "-filter_complex", graph, "-f", "null", "-"])
        let frames = try Processes.run("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", tapped])
        #expect(frames.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "80", "\(frames.stdout)")
        let compares = compared.stderr.contains("average:")
        let worst = compared.stderr.range(of: " min:").flatMap { Double(compared.stderr[$0.upperBound...].prefix { "0123456789.inf".contains($0) }) }
        #expect(compares && worst.map { $0 >= 42 } == true, "worst frame \(String(describing: worst)) dB: \(compared.stderr.suffix(300))")
        print("VAP tap against ffmpeg's composition over black: worst frame \(worst ?? 0) dB")
    }

    @Test func audioStaysWithTheFrames() throws {
        let result = try reel("vap", "play", "--headless", "--alpha", "right", "--events", try Self.fixture("special_size_750.mp4"))
        #expect(result.status == 0, "\(result.stderr)")
        let offsets = result.stdout.split(separator: "\n").compactMap { line -> Double? in
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], event["event"] as? String == "frame" else { return nil }
            return event["audioOffset"] as? Double
        }
        #expect(offsets.count >= 115, "\(offsets.count) frames timed by the audio clock")
        let sorted = offsets.map(abs).sorted()
        let worst = sorted.last ?? .infinity, p95 = sorted.isEmpty ? .infinity : sorted[sorted.count * 95 / 100]
        // One audio device period (10 ms) plus scheduling; a loaded machine late now and then,
        // by less than a frame.
        #expect(p95 < 0.03 && worst < 0.05, "audio was \(p95 * 1000) ms (95th percentile) and \(worst * 1000) ms (worst) away from a frame")
        print("special_size_750: \(offsets.count) frames, worst audio offset \(String(format: "%.1f", worst * 1000)) ms")
    }
}
