import ArgumentParser
import Foundation
import Reel

struct VAPInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a VAP file's configuration, tracks and layout.")

    @Argument(help: "A VAP animation (.mp4).")
    var file: String

    @Flag(help: "Print JSON: the vapc box's JSON as the file holds it, the tracks and the layout.")
    var json = false

    @OptionGroup var vap: VAPOptions

    func run() async throws {
        let (vapFile, layout) = try await failing {
            let vapFile = try VAPFile(source: MP4FileSource(path: file))
            return (vapFile, try vap.layout(for: file) ?? vapFile.layout())
        }
        let rate = VAPFrameRate.choose(requested: nil, config: vapFile.config?.info.framesPerSecond, samples: vapFile.sampleFrameRate)
        let layoutSource = vapFile.config != nil ? "vapc" : (vap.alpha == "detect" ? "detected" : "alpha \(vap.alpha)")
        func quoted(_ text: String) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        }
        func rect(_ r: PixelRect) -> String { "[\(r.x), \(r.y), \(r.width), \(r.height)]" }
        let video = vapFile.video
        let duration = Double(vapFile.frameCount) / rate
        let platforms = VAPPlatforms.verdicts(codec: vapFile.codec, width: vapFile.videoWidth, height: vapFile.videoHeight)
        if json {
            var fields: [String] = []
            fields.append("\"vapc\": " + (vapFile.configJSON.map { String(decoding: $0, as: UTF8.self) } ?? "null"))
            fields.append("\"video\": {\"codec\": \"\(vapFile.codec)\", \"width\": \(vapFile.videoWidth), \"height\": \(vapFile.videoHeight), \"frames\": \(vapFile.frameCount), \"keyframes\": \(video.samples.filter(\.isKeyframe).count), \"timescale\": \(video.timescale)}")
            if let audio = vapFile.audio {
                fields.append("\"audio\": {\"codec\": \"\(audio.sampleEntryType)\", \"samples\": \(audio.samples.count), \"timescale\": \(audio.timescale)}")
            } else {
                fields.append("\"audio\": null")
            }
            fields.append("\"frames\": \(vapFile.frameCount)")
            fields.append(String(format: "\"fps\": %.6g", rate))
            fields.append("\"layout\": {\"source\": \"\(layoutSource)\", \"rgbFrame\": \(rect(layout.rgbFrame)), \"aFrame\": \(rect(layout.alphaFrame)), \"width\": \(layout.outputWidth), \"height\": \(layout.outputHeight)}")
            let verdicts = platforms.map { "\"\($0.platform)\": {\"safe\": \($0.isSafe), \"reason\": " + ($0.reason.map(quoted) ?? "null") + "}" }
            fields.append("\"platforms\": {" + verdicts.joined(separator: ", ") + "}")
            fields.append("\"fusion\": {\"sources\": \(vapFile.config?.sources.count ?? 0), \"frames\": \(vapFile.config?.frames.count ?? 0)}")
            print("{" + fields.joined(separator: ", ") + "}")
            return
        }
        print("file:      \(file)")
        print("video:     \(vapFile.codec) \(vapFile.videoWidth)x\(vapFile.videoHeight), \(vapFile.frameCount) frames, " + String(format: "%.3f fps, %.3f s", rate, duration))
        print("audio:     " + (vapFile.audio.map { "\($0.sampleEntryType), \($0.samples.count) samples" } ?? "none"))
        print("layout:    colour \(rect(layout.rgbFrame)), alpha \(rect(layout.alphaFrame)) (\(layoutSource)); shown at \(layout.outputWidth)x\(layout.outputHeight)")
        print("platforms: " + VAPPlatforms.summary(platforms))
        if let config = vapFile.config {
            print("vapc:      version \(config.info.version), \(config.info.frameCount) frames" + (config.info.framesPerSecond.map { ", \($0) fps" } ?? ""))
            for source in config.sources {
                print("  source \(source.id): \(source.kind == .text ? "text" : "image") \(source.tag) \(source.width)x\(source.height) \(source.fit.rawValue)"
                      + (source.color.map { " colour \($0)" } ?? "") + (source.isBold ? " bold" : ""))
            }
            if !config.frames.isEmpty {
                let indices = config.frames.map(\.index)
                print("  fusion in \(Set(indices).count) frames (\(indices.min()!)–\(indices.max()!))")
            }
        } else {
            print("vapc:      none")
        }
    }
}
