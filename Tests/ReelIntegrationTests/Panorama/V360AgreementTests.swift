import Foundation
import Reel
import Testing

/// Reel's 360° → flat projection against ffmpeg's v360 filter on the same planar RGB
/// picture (so RGB is compared, every plane at full size), for every input projection.
@Suite struct V360AgreementTests {
    static let outputSize = (width: 320, height: 180)

    /// Each input projection with a source size (face sizes that are not whole numbers of
    /// pixels included) and v360's options for it.
    static let sources: [(projection: PanoramaProjection, width: Int, height: Int, options: String)] = [
        (.equirectangular, 1024, 512, "input=e"),
        (.halfEquirectangular, 640, 640, "input=hequirect"),
        (.cubemap3x2(.standard), 961, 640, "input=c3x2"),
        (.cubemap3x2(try! CubemapLayout(faceOrder: "fbrlud", faceRotations: "012302", padding: 4)), 960, 641,
         "input=c3x2:in_forder=fbrlud:in_frot=012302:fin_pad=4"),
        (.cubemap6x1(.standard), 1539, 256, "input=c6x1"),
        (.equiAngularCubemap, 1152, 768, "input=eac"),
        (.dualFisheye(fieldOfView: 180), 1024, 512, "input=dfisheye:ih_fov=180:iv_fov=180"),
        (.dualFisheye(fieldOfView: 200), 1280, 640, "input=dfisheye:ih_fov=200:iv_fov=200"),
    ]

    /// Ten views: straight ahead, both poles, the ±180° seam, a cube's edges and corners,
    /// rolls, wide and narrow.
    static let views: [PanoramaView] = [
        PanoramaView(yaw: 0, pitch: 0, roll: 0, horizontalFOV: 90),
        PanoramaView(yaw: 0, pitch: 90, roll: 0, horizontalFOV: 100),
        PanoramaView(yaw: 30, pitch: -90, roll: 0, horizontalFOV: 100),
        PanoramaView(yaw: 180, pitch: 0, roll: 0, horizontalFOV: 90),
        PanoramaView(yaw: -180, pitch: 10, roll: 0, horizontalFOV: 75),
        PanoramaView(yaw: 179.5, pitch: -20, roll: 15, horizontalFOV: 120),
        PanoramaView(yaw: 45, pitch: 35, roll: -30, horizontalFOV: 60),
        PanoramaView(yaw: -135, pitch: -45, roll: 90, horizontalFOV: 90),
        PanoramaView(yaw: -90, pitch: 60, roll: 0, horizontalFOV: 30),
        PanoramaView(yaw: 10, pitch: 80, roll: 45, horizontalFOV: 150),
    ].map { $0.squarePixels(width: outputSize.width, height: outputSize.height) }

    static func sourcePath(_ index: Int) -> String {
        let source = sources[index]
        return FileManager.default.temporaryDirectory.appendingPathComponent("reel-v360-source-\(source.width)x\(source.height).gbrp").path
    }

    /// A testsrc2 picture of the source's size (the projection does not matter to v360's
    /// arithmetic, only the size), planar RGB.
    static func rawSource(_ index: Int) throws -> [UInt8] {
        let path = sourcePath(index), source = sources[index]
        try CachedFile.at(path) { partial in
            // testsrc2 makes even sizes only; odd ones are scaled to (planar RGB has no subsampling).
            let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                                                    "testsrc2=size=\(source.width / 2 * 2)x\(source.height / 2 * 2):rate=1",
                                                    "-frames:v", "1", "-vf", "scale=\(source.width):\(source.height):flags=neighbor",
                                                    "-pix_fmt", "gbrp", "-f", "rawvideo", partial])
            guard made.status == 0 else { throw TestSetupError(made.stderr) }
        }
        let pixels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard pixels.count == source.width * source.height * 3 else { throw TestSetupError("\(path): \(pixels.count) bytes") }
        return pixels
    }

    /// v360's output for `view`, planar RGB.
    static func v360(_ view: PanoramaView, interpolation: PanoramaInterpolation, source index: Int) throws -> [UInt8] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("reel-v360-\(UUID().uuidString).gbrp").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let source = sources[index]
        let filter = "v360=\(source.options):output=flat:yaw=\(view.yaw):pitch=\(view.pitch):roll=\(view.roll)"
            + ":h_fov=\(view.horizontalFOV):v_fov=\(view.verticalFOV):w=\(outputSize.width):h=\(outputSize.height)"
            + ":interp=\(interpolation == .nearest ? "near" : "linear")"
        let result = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "rawvideo", "-pix_fmt", "gbrp",
                                                  "-s", "\(source.width)x\(source.height)", "-i", sourcePath(index),
                                                  "-vf", filter, "-pix_fmt", "gbrp", "-f", "rawvideo", output])
        guard result.status == 0 else { throw TestSetupError(result.stderr) }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// Reel's output for `view`: each plane projected on its own.
    static func reel(_ view: PanoramaView, interpolation: PanoramaInterpolation, source index: Int) throws -> [UInt8] {
        let source = sources[index]
        var pixels = try rawSource(index)
        let map = try PanoramaMap(view: view, projection: source.projection, sourceWidth: source.width, sourceHeight: source.height,
                                  width: outputSize.width, height: outputSize.height, interpolation: interpolation)
        let planeSize = source.width * source.height, outputPlane = outputSize.width * outputSize.height
        var output = [UInt8](repeating: 0, count: outputPlane * 3)
        pixels.withUnsafeMutableBytes { input in
            output.withUnsafeMutableBytes { out in
                for plane in 0..<3 {
                    let from = PixelPlane(baseAddress: input.baseAddress! + plane * planeSize, bytesPerRow: source.width,
                                          rowByteCount: source.width, rowCount: source.height)
                    let to = PixelPlane(baseAddress: out.baseAddress! + plane * outputPlane, bytesPerRow: outputSize.width,
                                        rowByteCount: outputSize.width, rowCount: outputSize.height)
                    map.remap(from, into: to, threads: 2)
                }
            }
        }
        return output
    }

    static let cases = (0..<sources.count).flatMap { source in (0..<views.count).map { (source, $0) } }

    @Test(arguments: cases)
    func nearestPicksTheSamePixelsAsV360(source: Int, view index: Int) throws {
        let view = Self.views[index], name = Self.sources[source].options
        let ours = try Self.reel(view, interpolation: .nearest, source: source)
        let theirs = try Self.v360(view, interpolation: .nearest, source: source)
        try #require(ours.count == theirs.count)
        let identical = zip(ours, theirs).filter { $0 == $1 }.count
        let share = Double(identical) / Double(ours.count)
        print("v360 nearest, \(name), view \(index): \(String(format: "%.4f", share * 100)) % identical")
        #expect(share >= 0.999, "\(name), view \(index): \(share * 100) % identical")
    }

    @Test(arguments: cases)
    func bilinearMatchesV360(source: Int, view index: Int) throws {
        let view = Self.views[index], name = Self.sources[source].options
        let ours = try Self.reel(view, interpolation: .bilinear, source: source)
        let theirs = try Self.v360(view, interpolation: .bilinear, source: source)
        try #require(ours.count == theirs.count)
        let squared = zip(ours, theirs).reduce(0.0) { $0 + pow(Double(Int($1.0) - Int($1.1)), 2) }
        let psnr = squared == 0 ? Double.infinity : 10 * log10(255 * 255 / (squared / Double(ours.count)))
        print("v360 bilinear, \(name), view \(index): PSNR \(psnr) dB")
        #expect(psnr >= 50, "\(name), view \(index): PSNR \(psnr) dB")
    }
}
