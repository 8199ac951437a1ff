import Foundation
import ReelCore
import ReelFFmpeg

/// Renders a VAP animation to files that keep its alpha: a PNG sequence
/// (`dir/%04d.png`, straight alpha as PNG defines, numbered from 0), a MOV (ProRes 4444,
/// or PNG pictures) or a WebM (VP9 with alpha). A MOV also gets the animation's audio.
public struct VAPExport: Sendable {
    /// Where the frames go, and in which format.
    public enum Output: Sendable, Equatable {
        /// A printf pattern with one integer, such as `frames/%04d.png`.
        case pngSequence(pattern: String)
        /// A MOV with ProRes 4444 and its alpha (`-c:v prores_ks -profile:v 4444`).
        case proRes4444(path: String)
        /// A MOV whose pictures are PNGs with alpha (lossless).
        case pngMOV(path: String)
        /// A WebM with VP9 and its alpha.
        case vp9WebM(path: String)

        /// The output a path names: `%…d` patterns are sequences, `.mov` ProRes 4444
        /// (PNG pictures when `movCodec` is `png`), `.webm` VP9.
        public init(path: String, movCodec: String = "prores") throws {
            let lowered = path.lowercased()
            if lowered.hasSuffix(".png") {
                guard path.range(of: "%[0-9]*d", options: .regularExpression) != nil else {
                    throw VAPError.invalidField(path: "output", reason: "a PNG sequence needs a frame number pattern, such as dir/%04d.png")
                }
                self = .pngSequence(pattern: path)
            } else if lowered.hasSuffix(".mov") {
                switch movCodec {
                case "prores": self = .proRes4444(path: path)
                case "png": self = .pngMOV(path: path)
                default: throw VAPError.invalidField(path: "codec", reason: "\(movCodec) is neither prores nor png")
                }
            } else if lowered.hasSuffix(".webm") {
                self = .vp9WebM(path: path)
            } else {
                throw VAPError.invalidField(path: "output", reason: "\(path): keep alpha with dir/%04d.png, .mov or .webm")
            }
        }
    }

    /// The VAP file.
    public var input: String
    /// Where the frames go.
    public var output: Output
    /// Where colour and alpha lie; the file's `vapc`, or detected, when `nil`.
    public var layout: VAPLayout?
    /// The text and images fused in.
    public var content: VAPFusionContent
    /// Frames per second of the output; the animation's own rate when `nil`.
    public var framesPerSecond: Int?

    /// An export of `input` to `output`.
    public init(input: String, output: Output, layout: VAPLayout? = nil, content: VAPFusionContent = VAPFusionContent(), framesPerSecond: Int? = nil) {
        self.input = input
        self.output = output
        self.layout = layout
        self.content = content
        self.framesPerSecond = framesPerSecond
    }

    /// Runs on the calling thread; `progress` gets the fraction done. Returns the number
    /// of frames written.
    @discardableResult
    public func run(progress: (Double) -> Void = { _ in }) throws -> Int {
        let renderer = try VAPRenderer(path: input, layout: layout, content: content, alpha: .straight)
        let file = renderer.decoder.file
        let rate = VAPFrameRate.choose(requested: framesPerSecond, config: file.config?.info.framesPerSecond, samples: file.sampleFrameRate)
        let writer = try makeWriter(width: renderer.layout.outputWidth, height: renderer.layout.outputHeight, rate: rate)
        var written = 0
        var madeDirectory: String?
        while let (index, picture) = try renderer.nextFrame() {
            switch output {
            case .pngSequence(let pattern):
                let path = String(format: pattern, index)
                let directory = (path as NSString).deletingLastPathComponent
                if !directory.isEmpty, directory != madeDirectory {
                    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                    madeDirectory = directory
                }
                try PNGWriter.write(picture.videoFrame(), to: path)
            default:
                // Audio up to this frame's time first, so that the file comes out interleaved.
                try writer?.copyAudio(until: Double(index) / rate)
                try writer?.video.write(picture, pts: Int64(index))
            }
            written += 1
            progress(Double(written) / Double(renderer.decoder.frameCount))
        }
        try writer?.finish()
        return written
    }

    private func makeWriter(width: Int, height: Int, rate: Double) throws -> AudioPassthroughWriter? {
        let frameRate = Rational(Int((rate * 1000).rounded()), 1000)
        var settings = VideoFileWriter.Settings(width: width, height: height, timeBase: Rational(frameRate.denominator, frameRate.numerator), frameRate: frameRate)
        let path: String
        var copyAudio = true
        switch output {
        case .pngSequence: return nil
        case .proRes4444(let file):
            path = file
            settings.encoder = "prores_ks"
            settings.pixelFormat = PixelFormat("yuva444p10le")
            settings.encoderOptions = ["profile": "4444", "alpha_bits": "16"]
        case .pngMOV(let file):
            path = file
            settings.encoder = "png"
            settings.pixelFormat = .rgba
        case .vp9WebM(let file):
            path = file
            settings.encoder = "libvpx-vp9"
            settings.pixelFormat = PixelFormat("yuva420p")
            settings.encoderOptions = ["crf": "20", "b": "0", "deadline": "good", "cpu-used": "4", "row-mt": "1"]
            // WebM takes Opus or Vorbis, not VAP's AAC.
            copyAudio = false
        }
        let demuxer = try Demuxer(url: input)
        let audioIndex = copyAudio ? demuxer.bestStream(of: .audio) : nil
        return AudioPassthroughWriter(video: try VideoFileWriter(path: path, video: settings, copying: audioIndex, of: demuxer),
                                      audio: audioIndex.map { (demuxer, $0) })
    }
}
