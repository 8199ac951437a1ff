import Foundation
import Reel

/// The independent reference for VAP compositing, computed by ffmpeg from the same file:
/// the colour region cropped and converted to RGBA by libswscale, the alpha region's luma
/// cropped and scaled bilinearly to the colour region's size, joined by `alphamerge`.
enum VAPOracle {
    static func frames(_ path: String, layout: VAPLayout) throws -> [[UInt8]] {
        let c = layout.rgbFrame, a = layout.alphaFrame
        let graph = "[0:v]split[c][a];[c]crop=\(c.width):\(c.height):\(c.x):\(c.y):exact=1,format=rgba[rgb];"
            + "[a]format=gray,crop=\(a.width):\(a.height):\(a.x):\(a.y),scale=\(c.width):\(c.height):flags=bilinear[alpha];"
            + "[rgb][alpha]alphamerge,format=rgba"
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("oracle.rgba").path
        let result = try Processes.run("ffmpeg", ["-v", "error", "-i", path, "-filter_complex", graph, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgba", output])
        guard result.status == 0 else { throw TestSetupError("ffmpeg: \(result.stderr)") }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        let frameBytes = c.width * c.height * 4
        return stride(from: 0, to: bytes.count - frameBytes + 1, by: frameBytes).map { Array(bytes[$0..<$0 + frameBytes]) }
    }

    /// Packed RGBA bytes of a buffer (rows without padding).
    static func packed(_ picture: PixelBuffer) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(picture.width * picture.height * 4)
        picture.forEachPackedRow { bytes.append(contentsOf: $0) }
        return bytes
    }

    struct Difference: CustomStringConvertible {
        var colourMean: Double, colourWithin3: Double, alphaMean: Double, alphaWithin3: Double
        var description: String {
            String(format: "colour mean %.3f, %.3f %% within ±3; alpha mean %.3f, %.3f %% within ±3", colourMean, colourWithin3 * 100, alphaMean, alphaWithin3 * 100)
        }
        var acceptable: Bool { colourMean <= 1 && colourWithin3 >= 0.995 && alphaMean <= 1 && alphaWithin3 >= 0.995 }
    }

    static func difference(_ ours: [UInt8], _ reference: [UInt8]) -> Difference {
        var colourSum = 0, colourNear = 0, alphaSum = 0, alphaNear = 0
        for index in 0..<min(ours.count, reference.count) {
            let delta = abs(Int(ours[index]) - Int(reference[index]))
            if index % 4 == 3 { alphaSum += delta; alphaNear += delta <= 3 ? 1 : 0 } else { colourSum += delta; colourNear += delta <= 3 ? 1 : 0 }
        }
        let pixels = Double(ours.count / 4)
        return Difference(colourMean: Double(colourSum) / (3 * pixels), colourWithin3: Double(colourNear) / (3 * pixels),
                          alphaMean: Double(alphaSum) / pixels, alphaWithin3: Double(alphaNear) / pixels)
    }
}
