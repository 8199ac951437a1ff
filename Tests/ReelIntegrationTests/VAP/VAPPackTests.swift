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
    static func frames(in directory: URL, width: Int, height: Int) throws -> String {
        let pattern = directory.appendingPathComponent("%04d.png").path
        let alpha = "clip(255*(0.5+0.5*sin(X/23+T*3))*(0.3+Y/\(height)),0,255)"
        let made = try Processes.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=\(width / 2)x\(height / 2):r=25:d=2,scale=\(width):\(height):flags=bicubic,format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='\(alpha)'",
                                                "-start_number", "1", pattern])
        guard made.status == 0 else { throw TestSetupError("ffmpeg: \(made.stderr)") }
        return pattern
    }

    /// The source frames read by ffmpeg (straight RGBA) and premultiplied here.
    static func premultipliedSource(_ pattern: String, index: Int) throws -> [UInt8] {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("reel-pack-\(UUID().uuidString).rgba").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let read = try Processes.run("ffmpeg", ["-v", "error", "-i", String(format: pattern, index + 1), "-f", "rawvideo", "-pix_fmt", "rgba", raw])
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

    @Test func aPatternWithoutFramesIsAClearError() throws {
        let result = try reel("vap", "pack", "/nonexistent/%04d.png", "-o", "/tmp/never.mp4")
        #expect(result.status == 1 && result.stderr.hasPrefix("reel: "), "\(result.stderr)")
    }
}
