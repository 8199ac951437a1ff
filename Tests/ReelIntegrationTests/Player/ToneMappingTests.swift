import Foundation
import Reel
import Testing

/// HDR10 (PQ) and HLG video mapped for an SDR display, against the same zscale and tonemap
/// chain run by ffmpeg; 10-bit SDR shown as it is.
@Suite struct ToneMappingTests {
    /// 2 s of 10-bit HEVC at 320×240, 25 fps, tagged with `transfer` (x265's name): BT.2020
    /// for HDR, BT.709 otherwise.
    static func tenBit(_ transfer: String) throws -> String {
        let space = transfer == "bt709" ? "colorprim=bt709:colormatrix=bt709" : "colorprim=bt2020:colormatrix=bt2020nc"
        var parameters = "log-level=error:\(space):transfer=\(transfer)"
        if transfer == "smpte2084" {
            parameters += ":hdr10=1:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,50):max-cll=1000,400"
        }
        return try Fixtures.made("\(transfer)-10bit-2s.mkv", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2",
            "-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-x265-params", parameters])
    }

    static let indices = [0, 12, 25, 37, 49]

    /// Checks the player's frames of `path` (mapped with `curve`, or not at all) through
    /// `engine` against ffmpeg's through `filter`.
    static func check(_ path: String, curve: ToneMapper.Curve?, against filter: String, at indices: [Int] = indices,
                      engine: PlaybackEngineKind = .ffmpeg) async throws -> Double {
        let ours = try await SubtitleTests.shown(path, indices: Set(indices)) { configuration in
            configuration.toneMapping = curve
            configuration.engine = .only(engine)
        }
        let theirs = try SubtitleTests.ffmpegFrames(path, filter: filter)
        var lowest = Double.infinity
        for index in indices {
            let quality = SubtitleTests.psnr(try #require(ours[index], "frame \(index) not shown"), theirs[index])
            lowest = min(lowest, quality)
            #expect(quality >= 40, "\(path) through \(engine), frame \(index): \(quality) dB")
        }
        return lowest
    }

    /// Colour HDR through either engine (the GStreamer engine's 10-bit pictures are mapped
    /// by the same code once they reach the shell).
    @Test(.timeLimit(.minutes(3)), arguments: ["smpte2084", "arib-std-b67"], PlaybackEngineKind.allCases)
    func hdrIsMappedAsFFmpegsZscaleAndTonemapChainMapsIt(transfer: String, engine: PlaybackEngineKind) async throws {
        let path = try Self.tenBit(transfer)
        let mapped = "\(ToneMapper.filters(.hable)),\(SubtitleTests.accurateRGB)"
        let lowest = try await Self.check(path, curve: .hable, against: mapped, engine: engine)
        print("\(transfer) with hable through \(engine): lowest PSNR \(lowest) dB against ffmpeg's chain over \(Self.indices.count) frames")
        // Unmapped, the picture differs from the mapped one: the mapping is what made it agree.
        let unmapped = try await SubtitleTests.shown(path, indices: [25]) { $0.toneMapping = nil }
        let theirs = try SubtitleTests.ffmpegFrames(path, filter: mapped)
        #expect(SubtitleTests.psnr(try #require(unmapped[25]), theirs[25]) < 30, "tone mapping off looked mapped")
    }

    @Test(.timeLimit(.minutes(3)), arguments: [ToneMapper.Curve.mobius, .reinhard, .clip])
    func everyCurveIsFFmpegs(curve: ToneMapper.Curve) async throws {
        let path = try Self.tenBit("smpte2084")
        _ = try await Self.check(path, curve: curve, against: "\(ToneMapper.filters(curve)),\(SubtitleTests.accurateRGB)", at: [25])
    }

    @Test(.timeLimit(.minutes(2))) func tenBitSDRIsShownAsItIs() async throws {
        let path = try Self.tenBit("bt709")
        let probe = try Processes.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=pix_fmt,color_transfer", "-of", "csv=p=0", path])
        #expect(probe.stdout.hasPrefix("yuv420p10le,bt709"), "\(probe.stdout)")
        _ = try await Self.check(path, curve: .hable, against: SubtitleTests.accurateRGB, at: [0, 10, 20])
    }
}
