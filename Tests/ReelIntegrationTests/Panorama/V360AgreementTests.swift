import Foundation
import Reel
import Testing

/// Reel's equirectangular → flat projection against ffmpeg's v360 filter on the same
/// planar RGB picture (so RGB is compared, every plane at full size).
@Suite struct V360AgreementTests {
    static let sourceSize = (width: 1024, height: 512)
    static let outputSize = (width: 320, height: 180)

    /// Ten views: straight ahead, both poles, the ±180° seam, rolls, wide and narrow.
    static let views: [PanoramaView] = [
        PanoramaView(yaw: 0, pitch: 0, roll: 0, horizontalFOV: 90),
        PanoramaView(yaw: 0, pitch: 90, roll: 0, horizontalFOV: 100),
        PanoramaView(yaw: 30, pitch: -90, roll: 0, horizontalFOV: 100),
        PanoramaView(yaw: 180, pitch: 0, roll: 0, horizontalFOV: 90),
        PanoramaView(yaw: -180, pitch: 10, roll: 0, horizontalFOV: 75),
        PanoramaView(yaw: 179.5, pitch: -20, roll: 15, horizontalFOV: 120),
        PanoramaView(yaw: 45, pitch: 30, roll: -30, horizontalFOV: 60),
        PanoramaView(yaw: -120, pitch: -45, roll: 90, horizontalFOV: 90),
        PanoramaView(yaw: -90, pitch: 60, roll: 0, horizontalFOV: 30),
        PanoramaView(yaw: 10, pitch: 80, roll: 45, horizontalFOV: 150),
    ].map { $0.squarePixels(width: outputSize.width, height: outputSize.height) }

    static func rawSource() throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reel-v360-source-\(sourceSize.width).gbrp").path
        if !FileManager.default.fileExists(atPath: path) {
            let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                                                    "testsrc2=size=\(sourceSize.width)x\(sourceSize.height):rate=1",
                                                    "-frames:v", "1", "-pix_fmt", "gbrp", "-f", "rawvideo", path + ".part"])
            guard made.status == 0 else { throw TestSetupError(made.stderr) }
            try? FileManager.default.moveItem(atPath: path + ".part", toPath: path)
        }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// v360's output for `view`, planar RGB.
    static func v360(_ view: PanoramaView, interpolation: PanoramaInterpolation, source: String) throws -> [UInt8] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("reel-v360-\(UUID().uuidString).gbrp").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let filter = "v360=input=e:output=flat:yaw=\(view.yaw):pitch=\(view.pitch):roll=\(view.roll)"
            + ":h_fov=\(view.horizontalFOV):v_fov=\(view.verticalFOV):w=\(outputSize.width):h=\(outputSize.height)"
            + ":interp=\(interpolation == .nearest ? "near" : "linear")"
        let result = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "rawvideo", "-pix_fmt", "gbrp",
                                                  "-s", "\(sourceSize.width)x\(sourceSize.height)", "-i", source,
                                                  "-vf", filter, "-pix_fmt", "gbrp", "-f", "rawvideo", output])
        guard result.status == 0 else { throw TestSetupError(result.stderr) }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// Reel's output for `view`: each plane projected on its own.
    static func reel(_ view: PanoramaView, interpolation: PanoramaInterpolation, source: [UInt8]) throws -> [UInt8] {
        let map = try EquirectangularMap(view: view, sourceWidth: sourceSize.width, sourceHeight: sourceSize.height,
                                         width: outputSize.width, height: outputSize.height, interpolation: interpolation)
        let planeSize = sourceSize.width * sourceSize.height, outputPlane = outputSize.width * outputSize.height
        var output = [UInt8](repeating: 0, count: outputPlane * 3)
        var source = source
        source.withUnsafeMutableBytes { input in
            output.withUnsafeMutableBytes { out in
                for plane in 0..<3 {
                    let from = PixelPlane(baseAddress: input.baseAddress! + plane * planeSize, bytesPerRow: sourceSize.width,
                                          rowByteCount: sourceSize.width, rowCount: sourceSize.height)
                    let to = PixelPlane(baseAddress: out.baseAddress! + plane * outputPlane, bytesPerRow: outputSize.width,
                                        rowByteCount: outputSize.width, rowCount: outputSize.height)
                    map.remap(from, into: to, threads: 2)
                }
            }
        }
        return output
    }

    static var sourcePath: String { FileManager.default.temporaryDirectory.appendingPathComponent("reel-v360-source-\(sourceSize.width).gbrp").path }

    @Test(arguments: 0..<views.count)
    func nearestPicksTheSamePixelsAsV360(view index: Int) throws {
        let source = try Self.rawSource()
        let view = Self.views[index]
        let ours = try Self.reel(view, interpolation: .nearest, source: source)
        let theirs = try Self.v360(view, interpolation: .nearest, source: Self.sourcePath)
        #expect(ours.count == theirs.count)
        let identical = zip(ours, theirs).filter { $0 == $1 }.count
        let worst = zip(ours, theirs).map { abs(Int($0) - Int($1)) }.max() ?? 0
        let share = Double(identical) / Double(ours.count)
        print("v360 nearest, view \(index) \(view): \(String(format: "%.4f", share * 100)) % identical, worst \(worst)")
        #expect(share >= 0.999, "view \(index): \(share * 100) % identical")
        #expect(worst <= 1, "view \(index): a value off by \(worst)")
    }

    @Test(arguments: 0..<views.count)
    func bilinearMatchesV360(view index: Int) throws {
        let source = try Self.rawSource()
        let view = Self.views[index]
        let ours = try Self.reel(view, interpolation: .bilinear, source: source)
        let theirs = try Self.v360(view, interpolation: .bilinear, source: Self.sourcePath)
        let squared = zip(ours, theirs).reduce(0.0) { $0 + pow(Double(Int($1.0) - Int($1.1)), 2) }
        let psnr = squared == 0 ? Double.infinity : 10 * log10(255 * 255 / (squared / Double(ours.count)))
        print("v360 bilinear, view \(index): PSNR \(psnr) dB")
        #expect(psnr >= 50, "view \(index): PSNR \(psnr) dB")
    }
}
