import Foundation
import Reel
import Testing

/// `reel vap pack` → Reel's renderer on a generated PNG sequence with moving colour and
/// alpha: the animation comes back (PSNR ≥ 35 dB on colour and on alpha), the file is a VAP
/// file ffprobe reads, with its vapc box and the audio muxed in.
///
/// The pictures are ffmpeg's test pattern drawn at half size and scaled up: VAP video is
/// 4:2:0, which cannot hold colour that changes from one pixel to the next (the pattern's
/// 1-pixel coloured text at full size comes back at 27–30 dB even losslessly coded).
@Suite struct VAPPackTests {
    static func frames(in directory: URL, width: Int, height: Int, seconds: Double = 2) throws -> String {
        let pattern = directory.appendingPathComponent("%04d.png").path
        let alpha = "clip(255*(0.5+0.5*sin(X/23+T*3))*(0.3+Y/\(height)),0,255)"
        let made = try Processes.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=\(width / 2)x\(height / 2):r=25:d=\(seconds),scale=\(width):\(height):flags=bicubic,format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='\(alpha)'",
                                                "-start_number", "1", pattern])
        guard made.status == 0 else { throw TestSetupError("ffmpeg: \(made.stderr)") }
        return pattern
    }

    /// The source frames read by ffmpeg (straight RGBA; scaled by its bicubic filter to
    /// `size` when given) and premultiplied here.
    static func premultipliedSource(_ pattern: String, index: Int, scaledTo size: (width: Int, height: Int)? = nil) throws -> [UInt8] {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("reel-pack-\(UUID().uuidString).rgba").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let scale = size.map { ["-vf", "scale=\($0.width):\($0.height):flags=bicubic"] } ?? []
        let read = try Processes.run("ffmpeg", ["-v", "error", "-i", String(format: pattern, index + 1)] + scale + ["-f", "rawvideo", "-pix_fmt", "rgba", raw])
        guard read.status == 0 else { throw TestSetupError("ffmpeg: \(read.stderr)") }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        for pixel in stride(from: 0, to: bytes.count, by: 4) {
            for channel in 0..<3 { bytes[pixel + channel] = UInt8((Int(bytes[pixel + channel]) * Int(bytes[pixel + 3]) + 127) / 255) }
        }
        return bytes
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8], channels: [Int]) -> Double {
        var sum = 0.0, count = 0
        for pixel in stride(from: 0, to: min(a.count, b.count), by: 4) {
            for channel in channels {
                let delta = Double(a[pixel + channel]) - Double(b[pixel + channel])
                sum += delta * delta
                count += 1
            }
        }
        let mse = sum / Double(max(count, 1))
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    @Test(arguments: [("h264", 320, 240), ("h265", 240, 320)])
    func packThenRenderRoundTrips(codec: String, width: Int, height: Int) throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pattern = try Self.frames(in: directory, width: width, height: height)
        let audio = directory.appendingPathComponent("tone.m4a").path
        _ = try Processes.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=2", "-c:a", "aac", audio])
        let output = directory.appendingPathComponent("packed.mp4").path
        let result = try reel("vap", "pack", pattern, "-o", output, "--codec", codec, "--audio", audio, "--fps", "25")
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try Processes.run("ffprobe", ["-v", "error", "-count_packets", "-show_entries", "stream=codec_name,nb_read_packets", "-of", "csv=p=0", output])
        #expect(probe.stdout.contains(codec == "h264" ? "h264,50" : "hevc,50"), "\(probe.stdout)")
        #expect(probe.stdout.contains("aac"), "no audio: \(probe.stdout)")
        let renderer = try VAPRenderer(path: output)
        let config = try #require(renderer.decoder.file.config)
        #expect(config.info.frameCount == 50 && config.info.framesPerSecond == 25 && config.info.width == width)
        // Portrait animations keep the alpha to the right, landscape ones below.
        #expect(height > width ? config.info.alphaFrame.x > width : config.info.alphaFrame.y > height)
        #expect(config.info.videoWidth % 16 == 0 && config.info.videoHeight % 16 == 0)
        var worstColour = Double.infinity, worstAlpha = Double.infinity
        while let (index, picture) = try renderer.nextFrame() {
            guard index % 7 == 0 else { continue }
            let source = try Self.premultipliedSource(pattern, index: index)
            let ours = VAPOracle.packed(picture)
            worstColour = min(worstColour, Self.psnr(ours, source, channels: [0, 1, 2]))
            worstAlpha = min(worstAlpha, Self.psnr(ours, source, channels: [3]))
        }
        print(String(format: "pack %@ %dx%d → render: worst PSNR colour %.2f dB, alpha %.2f dB", codec, width, height, worstColour, worstAlpha))
        #expect(worstColour >= 35 && worstAlpha >= 35, "colour \(worstColour) dB, alpha \(worstAlpha) dB")
    }

    /// Masks for a fusion source: a white box at (60, 60, 80, 40) on black, in the frames
    /// `enable` (a drawbox option) lets it show; the PNG pattern's path.
    static func boxMasks(in directory: URL, width: Int, height: Int, seconds: Double, enable: String = "") throws -> String {
        let masks = directory.appendingPathComponent("mask-%04d.png").path
        let made = try Processes.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i",
                                                "color=black:s=\(width)x\(height):r=25:d=\(seconds),format=rgba,drawbox=x=60:y=60:w=80:h=40:color=white@1:t=fill\(enable)",
                                                "-start_number", "1", masks])
        guard made.status == 0 else { throw TestSetupError("ffmpeg: \(made.stderr)") }
        return masks
    }

    /// A fusion source packed with its masks (a box shown in frames 10–30) is fused back
    /// by the renderer inside the box in those frames only.
    @Test func masksPackIntoAFusionAnimation() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pattern = try Self.frames(in: directory, width: 320, height: 240)
        let masks = try Self.boxMasks(in: directory, width: 320, height: 240, seconds: 2, enable: ":enable='between(n\\,10\\,30)'")
        let output = directory.appendingPathComponent("fusion.mp4").path
        let packed = try reel("vap", "pack", pattern, "-o", output, "--mask", "img:[sImg1]=" + masks, "--mask", "txt:[sTxt1]=" + masks,
                              "--text-style", "[sTxt1]=#FFF18D,b")
        #expect(packed.status == 0, "\(packed.stderr)")
        let image = directory.appendingPathComponent("magenta.png").path
        _ = try Processes.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=0xFF00FF:s=80x40", "-frames:v", "1", image])
        let fused = try VAPRenderer(path: output, content: VAPFusionContent(imageFiles: ["[sImg1]": image]))
        let plain = try VAPRenderer(path: output)
        let config = try #require(fused.decoder.file.config)
        #expect(config.info.isVAPX && config.sources.map(\.tag) == ["[sImg1]", "[sTxt1]"])
        #expect(config.sources[1].color == "#FFF18D" && config.sources[1].isBold)
        #expect(Set(config.frames.map(\.index)) == Set(10...30))
        #expect(config.frames.first?.objects.first?.frame == PixelRect(x: 60, y: 60, width: 80, height: 40))
        while let (index, picture) = try fused.nextFrame(), let (_, plainPicture) = try plain.nextFrame() {
            var changedInside = 0, changedOutside = 0
            for row in 0..<240 {
                let a = picture.planes[0].row(row), b = plainPicture.planes[0].row(row)
                for column in 0..<320 where memcmp(a + 4 * column, b + 4 * column, 4) != 0 {
                    if (60..<140).contains(column) && (60..<100).contains(row) { changedInside += 1 } else { changedOutside += 1 }
                }
            }
            #expect(changedOutside == 0, "frame \(index): \(changedOutside) pixels changed outside the mask")
            if (10...30).contains(index) {
                #expect(changedInside > 3000, "frame \(index): the image shows in \(changedInside) of 3200 pixels")
                let centre = picture.planes[0].row(80) + 4 * 100
                #expect(centre[0] > 230 && centre[1] < 25 && centre[2] > 230, "frame \(index) centre \(centre[0]) \(centre[1]) \(centre[2])")
            } else {
                #expect(changedInside == 0, "frame \(index) has no mask but changed")
            }
        }
    }

    /// `--max-edge` scales the frames and their masks down to the largest size whose packed
    /// video fits (451×338 for 640×480 in 512: worked out by hand from the layout), and the
    /// animation comes back as ffmpeg's bicubic scaling of the frames.
    @Test func maxEdgeScalesFramesAndMasksToFit() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pattern = try Self.frames(in: directory, width: 640, height: 480, seconds: 0.6)
        let masks = try Self.boxMasks(in: directory, width: 640, height: 480, seconds: 0.6)
        let output = directory.appendingPathComponent("fitted.mp4").path
        let packed = try reel("vap", "pack", pattern, "-o", output, "--max-edge", "512", "--mask", "img:[sImg1]=" + masks)
        #expect(packed.status == 0 && !packed.stderr.contains("warning"), "\(packed.stderr)")
        let probe = try Processes.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0:s=x", output])
        let video = probe.stdout.split(separator: "\n").first.map(String.init) ?? ""
        let edges = video.split(separator: "x").compactMap { Int($0) }
        #expect(edges.count == 2 && edges.allSatisfy { $0 <= 512 }, "ffprobe: \(probe.stdout)")
        let renderer = try VAPRenderer(path: output)
        let config = try #require(renderer.decoder.file.config)
        #expect(config.info.width == 451 && config.info.height == 338, "\(config.info.width)x\(config.info.height)")
        // The mask's box (60, 60, 80, 40) scaled by 451/640, give or take the filter's reach.
        let box = try #require(config.frames.first?.objects.first?.frame)
        #expect(abs(box.x - 42) <= 4 && abs(box.y - 42) <= 4 && abs(box.width - 56) <= 6 && abs(box.height - 28) <= 6, "\(box)")
        var worst = Double.infinity
        while let (index, picture) = try renderer.nextFrame() {
            guard index % 5 == 0 else { continue }
            let source = try Self.premultipliedSource(pattern, index: index, scaledTo: (451, 338))
            worst = min(worst, Self.psnr(VAPOracle.packed(picture), source, channels: [0, 1, 2, 3]))
        }
        print(String(format: "pack 640x480 --max-edge 512 → %@, 451x338: worst PSNR %.2f dB against ffmpeg's bicubic scaling", video, worst))
        #expect(worst >= 33, "\(worst) dB")
    }

    /// A pack over 1504 pixels on its longest edge is warned of and `reel vap info` says
    /// Android is not safe; `--max-edge 1504` packs it to 1008×1504 (ffprobe), safe.
    @Test func androidsEdgeIsWarnedOfAndFitted() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pattern = try Self.frames(in: directory, width: 1024, height: 1024, seconds: 0.2)
        let large = directory.appendingPathComponent("large.mp4").path
        let packed = try reel("vap", "pack", pattern, "-o", large, "--preset", "ultrafast")
        #expect(packed.status == 0 && packed.stderr.contains("warning: not safe for Android: 1552 px on the longest edge"), "\(packed.stderr)")
        let info = try reel("vap", "info", large)
        #expect(info.stdout.contains("platforms: Android no (1552 px"), "\(info.stdout)")
        let fitted = directory.appendingPathComponent("fitted.mp4").path
        let refitted = try reel("vap", "pack", pattern, "-o", fitted, "--preset", "ultrafast", "--max-edge", "1504")
        #expect(refitted.status == 0 && !refitted.stderr.contains("warning"), "\(refitted.stderr)")
        let probe = try Processes.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0:s=x", fitted])
        #expect(probe.stdout.hasPrefix("1008x1504"), "\(probe.stdout)")
        let fittedInfo = try reel("vap", "info", fitted, "--json")
        #expect(fittedInfo.stdout.contains(#""platforms": {"Android": {"safe": true, "reason": null}"#), "\(fittedInfo.stdout)")
    }

    @Test func aPatternWithoutFramesIsAClearError() throws {
        let result = try reel("vap", "pack", "/nonexistent/%04d.png", "-o", "/tmp/never.mp4")
        #expect(result.status == 1 && result.stderr.hasPrefix("reel: "), "\(result.stderr)")
    }
}
