import Foundation
import Reel
import Testing

/// HDR → SDR against numbers worked out here from the standards, not from the filter
/// string the player uses: grey steps of known luminance in PQ and in HLG, shown through
/// each engine with the hable curve, each step's SDR code value within 2 of the expected.
@Suite struct HDRStepsTests {
    static let size = (width: 320, height: 240)
    /// Eight grey bands side by side.
    static let bandWidth = 40

    /// The bands' 10-bit limited-range luma codes.
    static func codes(_ transfer: String) -> [Int] {
        let signals = transfer == "smpte2084"
            ? [0.5, 5, 20, 50, 100, 200, 500, 1000].map(HDRStandards.pqSignal(nits:))
            : [0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 1.0]
        return signals.map { Int((64 + 876 * $0).rounded()) }
    }

    /// The luminance (cd/m²) a display shows for a 10-bit limited-range `code`.
    static func nits(_ code: Int, _ transfer: String) -> Double {
        let signal = Double(code - 64) / 876
        return transfer == "smpte2084" ? HDRStandards.pqNits(signal: signal) : HDRStandards.hlgNits(signal: signal)
    }

    /// The peak a stream says it holds, which the tone curve maps to white: the PQ file
    /// says 400 cd/m² (its content light level's MaxCLL); the HLG file says nothing, and
    /// FFmpeg's `tonemap` then takes 1000 cd/m² (HLG's reference display).
    static func peak(_ transfer: String) -> Double { transfer == "smpte2084" ? 400 : 1000 }

    /// Losslessly coded 10-bit HEVC of the bands (BT.2020, limited range), tagged `transfer`.
    static func steps(_ transfer: String) throws -> String {
        let codes = Self.codes(transfer)
        let raw = try Paths.temporaryDirectory().appendingPathComponent("steps.yuv")
        var frame = Data()
        func sample(_ value: Int) { frame.append(UInt8(value & 0xFF)); frame.append(UInt8(value >> 8)) }
        for _ in 0..<size.height { for x in 0..<size.width { sample(codes[x / bandWidth]) } }
        for _ in 0..<(2 * (size.width / 2) * (size.height / 2)) { sample(512) }
        try Data((0..<5).flatMap { _ in frame }).write(to: raw)
        return try Fixtures.made("\(transfer)-steps-\(codes.map(String.init).joined(separator: "-")).mkv", [
            "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-s", "\(size.width)x\(size.height)", "-r", "25", "-i", raw.path,
            "-c:v", "libx265", "-pix_fmt", "yuv420p10le",
            "-x265-params", "log-level=error:lossless=1:range=limited:colorprim=bt2020:colormatrix=bt2020nc:transfer=\(transfer)"
                + (transfer == "smpte2084" ? ":max-cll=\(Int(peak(transfer))),100" : "")])
    }

    @Test(.timeLimit(.minutes(3)), arguments: ["smpte2084", "arib-std-b67"])
    func greyStepsComeOutAsTheStandardsSay(transfer: String) async throws {
        let path = try Self.steps(transfer)
        var shown: [PlaybackEngineKind: [UInt8]] = [:]
        for engine in PlaybackEngineKind.allCases {
            let frames = try await SubtitleTests.shown(path, indices: [2]) { configuration in
                configuration.engine = .only(engine)
                configuration.toneMapping = .hable
            }
            shown[engine] = try #require(frames[2], "\(engine): frame 2 not shown")
        }
        var table = ["\(transfer), peak \(Int(Self.peak(transfer))) cd/m²: code → cd/m² → expected SDR value; FFmpeg engine, GStreamer engine (R/G/B means over the band's middle)"]
        for (band, code) in Self.codes(transfer).enumerated() {
            let light = Self.nits(code, transfer)
            let expected = HDRStandards.sdrValue(nits: light, peakNits: Self.peak(transfer))
            var row = "\(code) → \(String(format: "%.2f", light)) → \(String(format: "%.1f", expected));"
            for engine in PlaybackEngineKind.allCases {
                let picture = try #require(shown[engine])
                var channels = [Double](repeating: 0, count: 3), count = 0.0
                for y in 100..<140 {
                    for x in (band * Self.bandWidth + 10)..<(band * Self.bandWidth + 30) {
                        for channel in 0..<3 { channels[channel] += Double(picture[(y * Self.size.width + x) * 3 + channel]) }
                        count += 1
                    }
                }
                let got = channels.map { $0 / count }
                row += " \(got.map { String(format: "%.1f", $0) }.joined(separator: "/"))"
                #expect(got.allSatisfy { abs($0 - expected) <= 2 }, "\(engine) \(transfer) band \(band) (\(light) cd/m²): \(got), expected \(expected)")
            }
            table.append(row)
        }
        print(table.joined(separator: "\n"))
        // Both engines show the same picture (the same decoder underneath, the same mapping).
        let agreement = SubtitleTests.psnr(try #require(shown[.ffmpeg]), try #require(shown[.gstreamer]))
        #expect(agreement >= 40, "\(transfer): the engines' pictures differ, \(agreement) dB")
    }
}

/// The curves of the standards, written out from their documents.
enum HDRStandards {
    /// SMPTE ST 2084 (PQ): luminance to signal.
    static func pqSignal(nits: Double) -> Double {
        let power = pow(nits / 10000, m1)
        return pow((c1 + c2 * power) / (1 + c3 * power), m2)
    }

    /// SMPTE ST 2084's EOTF: signal to luminance.
    static func pqNits(signal: Double) -> Double {
        let power = pow(signal, 1 / m2)
        return 10000 * pow(max(power - c1, 0) / (c2 - c3 * power), 1 / m1)
    }

    private static let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
    private static let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32

    /// ARIB STD-B67 (HLG) as ITU-R BT.2100 normalises it: signal to scene light in [0, 1],
    /// then BT.2100's reference OOTF for a 1000 cd/m² display (system gamma 1.2; for grey,
    /// the scene luminance is the light itself).
    static func hlgNits(signal: Double) -> Double {
        let (a, b) = (0.17883277, 1 - 4 * 0.17883277)
        let c = 0.5 - a * log(4 * a)
        let scene = signal <= 0.5 ? signal * signal / 3 : (exp((signal - c) / a) + b) / 12
        return 1000 * pow(scene, 1.2)
    }

    /// Hable's filmic curve (John Hable's Uncharted 2 constants), as FFmpeg's `tonemap` uses it.
    static func hable(_ x: Double) -> Double {
        let (a, b, c, d, e, f) = (0.15, 0.50, 0.10, 0.20, 0.02, 0.30)
        return (x * (x * a + b * c) + d * e) / (x * (x * a + b) + d * f) - e / f
    }

    /// The full-range 8-bit value a grey of `nits` becomes on an SDR display: relative to
    /// 100 cd/m², through hable with the stream's peak at white (brighter light clips),
    /// then BT.1886's inverse EOTF (γ 2.4): tone-mapped light is display light, so it is
    /// encoded for the display's EOTF, not with the BT.709 camera OETF.
    static func sdrValue(nits: Double, peakNits: Double) -> Double {
        let mapped = min(max(hable(nits / 100) / hable(peakNits / 100), 0), 1)
        return 255 * pow(mapped, 1 / 2.4)
    }
}
