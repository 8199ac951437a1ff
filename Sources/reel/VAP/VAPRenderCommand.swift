import ArgumentParser
import Foundation
import Reel

struct VAPRenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a VAP animation to files with alpha.",
        discussion: """
            OUT is a PNG sequence (dir/%04d.png, numbered from 0, straight alpha), a .mov (ProRes 4444, \
            or PNG pictures with --codec png; the audio is copied) or a .webm (VP9 with alpha).
            """)

    @Argument(help: "A VAP animation (.mp4).")
    var input: String

    @Option(name: .shortAndLong, help: "dir/%04d.png, OUT.mov or OUT.webm.")
    var output: String

    @Option(help: "Codec of a .mov: prores (ProRes 4444) or png.")
    var codec: String = "prores"

    @Option(help: "Frames per second of the output (1–60); the animation's own by default.")
    var fps: Int?

    @OptionGroup var vap: VAPOptions
    @OptionGroup var common: CommonOptions

    func run() async throws {
        common.setUpLogging()
        let export = try await failing {
            VAPExport(input: input, output: try VAPExport.Output(path: output, movCodec: codec), layout: try vap.layout(for: input),
                      content: vap.content, framesPerSecond: fps)
        }
        let bar = ProgressBar()
        let frames = try await failing {
            try await BlockingRun.run { try export.run { bar.show($0) } }
        }
        bar.finish()
        FileHandle.standardError.write(Data("reel: wrote \(frames) frames to \(output)\n".utf8))
    }
}
