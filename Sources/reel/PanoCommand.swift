import ArgumentParser
import Foundation
import Reel

struct PanoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pano",
        abstract: "360° video tools.",
        subcommands: [PanoRenderCommand.self])
}

struct PanoRenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Reframe a 360° video into a flat one, with its audio.",
        discussion: """
            The view is fixed (--yaw, --pitch, --roll, --fov) or follows --path, a JSON file of \
            keyframes: {"keyframes": [{"time": 0, "yaw": 0, "pitch": 0, "fov": 90}, {"time": 5, "yaw": 120}]}. \
            Video is encoded with libx264; the first audio stream is copied. The source's projection \
            comes from its spherical metadata, or --projection (equirectangular when neither says).
            """)

    @Argument(help: "A 360° video.")
    var input: String

    @OptionGroup(title: "Source projection") var source: ProjectionOptions

    @Option(name: .shortAndLong, help: "The flat video to write (.mp4, .mkv, .mov).")
    var output: String

    @Option(parsing: .unconditional, help: "Degrees; > 0 looks right.") var yaw: Float = 0
    @Option(parsing: .unconditional, help: "Degrees; > 0 looks up.") var pitch: Float = 0
    @Option(parsing: .unconditional, help: "Degrees; > 0 turns clockwise.") var roll: Float = 0
    @Option(help: "Horizontal field of view, degrees (1 to 179).") var fov: Float = 90
    @Option(help: "Output size, WxH (even numbers).") var size: String = "1280x720"
    @Option(help: "Keyframes of time → yaw, pitch, fov (JSON).") var path: String?
    @Option(help: "Stereo layout of the source: tb, lr or mono (the left eye is used).") var stereo: String = "mono"
    @Option(help: "near or linear.") var interp: String = "linear"
    @Option(help: "libx264 constant rate factor: 0 is lossless, 18 the default.") var crf: Int = 18

    @OptionGroup var common: CommonOptions

    var parsedSize: (Int, Int)? {
        let parts = size.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0, parts[0] % 2 == 0, parts[1] % 2 == 0, parts[0] <= 8192, parts[1] <= 8192 else { return nil }
        return (parts[0], parts[1])
    }

    func validate() throws {
        guard parsedSize != nil else { throw ValidationError("--size takes WxH with even numbers up to 8192, e.g. 1280x720") }
        guard fov > 0, fov < 180 else { throw ValidationError("--fov must be between 0 and 180") }
        guard (-90...90).contains(pitch) else { throw ValidationError("--pitch must be between -90 and 90") }
        guard StereoLayout(rawValue: stereo) != nil else { throw ValidationError("--stereo must be tb, lr or mono") }
        guard ["near", "linear"].contains(interp) else { throw ValidationError("--interp must be near or linear") }
        guard (0...51).contains(crf) else { throw ValidationError("--crf must be between 0 and 51") }
    }

    func run() async throws {
        common.setUpLogging()
        let (width, height) = parsedSize!
        var cameraPath: CameraPath?
        if let path {
            do {
                cameraPath = try JSONDecoder().decode(CameraPath.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            } catch let error as CameraPath.PathError {
                throw fail("--path \(path): \(error)")
            } catch {
                throw fail("--path \(path): not a keyframe file (\(error.localizedDescription))")
            }
        }
        guard !source.isFlat else { throw fail("--projection flat: a flat video has no 360° view to render") }
        let projection = try source.named() ?? SphericalMetadata.read(path: input)?.panoramaProjection ?? .equirectangular
        let settings = PanoramaSettings(view: PanoramaView(yaw: yaw, pitch: pitch, roll: roll, horizontalFOV: fov), projection: projection,
                                        stereo: StereoLayout(rawValue: stereo) ?? .mono,
                                        interpolation: interp == "near" ? .nearest : .bilinear)
        var configured = PanoramaExport(input: input, output: output, settings: settings, width: width, height: height, path: cameraPath)
        configured.crf = crf
        let export = configured
        let bar = ProgressBar()
        let frames = try await failing {
            try await BlockingRun.run { try export.run { bar.show($0) } }
        }
        bar.finish()
        FileHandle.standardError.write(Data("reel: wrote \(frames) frames to \(output)\n".utf8))
    }
}
