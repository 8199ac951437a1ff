import ArgumentParser
import Foundation
import Reel

struct VAPPackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack",
        abstract: "Make a VAP animation from a PNG sequence with alpha (as Tencent's VapTool does).",
        discussion: """
            The colour goes to the top left premultiplied over black, the alpha as gray at half scale \
            beside it (right of portrait frames, below landscape ones), 4 pixels apart, the video \
            padded to multiples of 16; the vapc box describes the layout. A packed video over 1504 \
            pixels on its longest edge is said to be unsafe for Android's decoders; --max-edge 1504 \
            scales the frames down to fit.
            """)

    @Argument(help: "The frames: a pattern such as frames/%04d.png, numbered from 0 to 4 on.")
    var input: String

    @Option(name: .shortAndLong, help: "The VAP file to write (.mp4).")
    var output: String

    @Option(help: "Frames per second (1–120).") var fps: Int = 25
    @Option(help: "h264 or h265.") var codec: String = "h264"
    @Option(help: "Constant rate factor (0–51; lower is better).") var crf: Int = 18
    @Option(help: "Encoder preset (ultrafast … veryslow).") var preset: String = "medium"
    @Option(help: "An audio file to mux in (its first audio stream is copied: AAC or MP3).") var audio: String?
    @Option(name: .customLong("max-edge"), help: "Scale the frames down so that the packed video's longest edge is at most this (64–8192; 1504 for Android).")
    var maxEdge: Int?

    @Option(name: .customLong("mask"), help: """
        A fusion source and its masks, KIND:TAG=PATTERN (repeatable; KIND is txt or img), e.g.         'img:[sImg1]=masks/avatar/%04d.png': pictures numbered as the frames, white and opaque where the source shows.
        """)
    var masks: [String] = []

    @Option(name: .customLong("text-style"), help: "Colour and weight of a text source, TAG=#RRGGBB[,b] (repeatable).")
    var textStyles: [String] = []

    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard VAPPack.Codec(rawValue: codec) != nil else { throw ValidationError("--codec takes h264 or h265") }
        guard (1...120).contains(fps) else { throw ValidationError("--fps must be between 1 and 120") }
        guard (0...51).contains(crf) else { throw ValidationError("--crf must be between 0 and 51") }
        if let maxEdge, !(64...8192).contains(maxEdge) { throw ValidationError("--max-edge must be between 64 and 8192") }
        _ = try fusionSources()
    }

    func fusionSources() throws -> [VAPPack.FusionSource] {
        var styles: [String: (color: String, bold: Bool)] = [:]
        for style in textStyles {
            let parts = style.split(separator: "=", maxSplits: 1).map(String.init)
            let fields = parts.count == 2 ? parts[1].split(separator: ",").map(String.init) : []
            guard let color = fields.first, VAPColor(hex: color) != nil, fields.dropFirst().allSatisfy({ $0 == "b" }) else {
                throw ValidationError("--text-style takes TAG=#RRGGBB or TAG=#RRGGBB,b (got \(style))")
            }
            styles[parts[0]] = (color, fields.count == 2)
        }
        return try masks.map { mask in
            guard let colon = mask.firstIndex(of: ":"), let equals = mask.firstIndex(of: "="), colon < equals,
                  let kind = VAPConfig.Source.Kind(rawValue: String(mask[..<colon])) else {
                throw ValidationError("--mask takes txt:TAG=PATTERN or img:TAG=PATTERN (got \(mask))")
            }
            var source = VAPPack.FusionSource(tag: String(mask[mask.index(after: colon)..<equals]), kind: kind,
                                              masks: String(mask[mask.index(after: equals)...]))
            if let style = styles[source.tag] {
                source.color = style.color
                source.bold = style.bold
            }
            return source
        }
    }

    func run() async throws {
        common.setUpLogging()
        var pack = VAPPack(input: input, output: output)
        pack.framesPerSecond = fps
        pack.codec = VAPPack.Codec(rawValue: codec) ?? .h264
        pack.crf = crf
        pack.preset = preset
        pack.audio = audio
        pack.fusion = try fusionSources()
        pack.maxEdge = maxEdge
        let configured = pack
        let bar = ProgressBar()
        let frames = try await failing { try await BlockingRun.run { try configured.run { bar.show($0) } } }
        bar.finish()
        let packed = try await failing { try VAPFile(source: MP4FileSource(path: output)) }
        FileHandle.standardError.write(Data("reel: packed \(frames) frames of \(packed.videoWidth)x\(packed.videoHeight) into \(output)\n".utf8))
        let android = VAPPlatforms.verdicts(codec: packed.codec, width: packed.videoWidth, height: packed.videoHeight)[0]
        if max(packed.videoWidth, packed.videoHeight) > VAPPlatforms.androidMaxEdge, let reason = android.reason {
            FileHandle.standardError.write(Data("reel: warning: not safe for Android: \(reason)\n".utf8))
        }
    }
}
