import Foundation
import ReelCore
import ReelFFmpeg

/// Makes a VAP animation from a PNG sequence with alpha, as Tencent's VapTool does: each
/// frame laid out by `VAPPackLayout` (colour premultiplied over black, alpha as gray at
/// half scale), encoded with libx264 or libx265, an audio file's stream copied in, and the
/// `vapc` box inserted after `ftyp`.
public struct VAPPack: Sendable {
    /// The video codec of the animation.
    public enum Codec: String, Sendable, CaseIterable {
        /// H.264 with libx264: every VAP player decodes it.
        case h264
        /// H.265 with libx265: smaller, for players with an HEVC decoder.
        case h265
    }

    /// A printf pattern with one integer (`frames/%04d.png`), numbered from 0 to 4 on.
    public var input: String
    /// The VAP file to write (`.mp4`).
    public var output: String
    /// Frames per second of the animation.
    public var framesPerSecond = 25
    /// The video codec.
    public var codec = Codec.h264
    /// libx264/libx265's constant rate factor.
    public var crf = 18
    /// libx264/libx265's preset: its speed/size trade-off.
    public var preset = "medium"
    /// An audio file whose first audio stream is copied (AAC, MP3 or another codec MP4 holds).
    public var audio: String?
    /// Fusion sources, each with its masks; the animation becomes a fusion (`vapx`) one.
    public var fusion: [FusionSource] = []
    /// The packed video's longest edge at most: larger frames (and their masks) are scaled
    /// down, keeping their shape, to the largest size that fits. Nil keeps them as they are.
    public var maxEdge: Int?

    /// A text or image the application will fuse in, and where: a mask picture for each
    /// frame (numbered as the frames; white and opaque where the source shows, a missing or
    /// empty picture where it does not).
    public struct FusionSource: Sendable {
        /// The tag the application knows the source by, such as `[sTxt1]`.
        public var tag: String
        /// An image or a text.
        public var kind: VAPConfig.Source.Kind
        /// A printf pattern of the mask pictures, numbered as the frames.
        public var masks: String
        /// The size the application draws the source at; the largest mask box by default.
        public var size: (width: Int, height: Int)?
        /// How the source fills each object's frame.
        public var fit: VAPConfig.Source.Fit = .fitXY
        /// Text colour (`#RRGGBB`) and boldness.
        public var color: String?
        /// Draw the text bold.
        public var bold = false

        /// A source shown where its masks are.
        public init(tag: String, kind: VAPConfig.Source.Kind, masks: String) {
            self.tag = tag
            self.kind = kind
            self.masks = masks
        }
    }

    /// A pack of the pictures `input` names into `output`, with every other setting at its default.
    public init(input: String, output: String) {
        self.input = input
        self.output = output
    }

    /// Most frames packed (at 60 per second, over half an hour).
    public static let maxFrames = 120_000

    /// The frames of the pattern: the first existing number from 0 to 4, then each next one.
    public func framePaths() throws -> [String] {
        guard input.range(of: "%[0-9]*d", options: .regularExpression) != nil else {
            throw VAPError.invalidField(path: "input", reason: "\(input) is not a frame pattern such as frames/%04d.png")
        }
        guard let first = firstNumber else {
            throw VAPError.invalidField(path: "input", reason: "no file matches \(input) (numbered from 0 to 4 on)")
        }
        var paths: [String] = []
        var number = first
        while paths.count < Self.maxFrames, FileManager.default.fileExists(atPath: String(format: input, number)) {
            paths.append(String(format: input, number))
            number += 1
        }
        return paths
    }

    /// Runs on the calling thread; `progress` gets the fraction done. Returns the frame count.
    @discardableResult
    public func run(progress: (Double) -> Void = { _ in }) throws -> Int {
        guard (1...120).contains(framesPerSecond) else { throw VAPError.invalidField(path: "fps", reason: "\(framesPerSecond) is not in 1…120") }
        let paths = try framePaths()
        let first = try ImageFile.premultipliedRGBA(path: paths[0])
        let scaler = PremultipliedScaler()
        var masks = try fusion.map { source in try loadMasks(source, frames: paths, width: first.width, height: first.height, scaledTo: nil, by: scaler) }
        var size = (width: first.width, height: first.height)
        if let maxEdge {
            guard let fitting = VAPPackLayout.fittingFrameSize(width: first.width, height: first.height,
                                                               maskSizes: Self.slotSizes(masks), maxEdge: maxEdge) else {
                throw VAPError.invalidField(path: "max-edge", reason: "no frame size packs into \(maxEdge) pixels")
            }
            if fitting != size {
                size = fitting
                masks = try fusion.map { source in try loadMasks(source, frames: paths, width: first.width, height: first.height, scaledTo: fitting, by: scaler) }
            }
        }
        let slotSizes = Self.slotSizes(masks)
        let packing = VAPPackLayout(width: size.width, height: size.height, maskSizes: slotSizes)
        if let maxEdge, packing.longestEdge > maxEdge {
            throw VAPError.invalidField(path: "max-edge", reason: "the masks scaled to \(size.width)x\(size.height) pack into \(packing.videoWidth)x\(packing.videoHeight), over \(maxEdge) pixels")
        }
        // Hidden, and the packed file written atomically: a killed pack leaves no file
        // under the output's name.
        let outputURL = URL(fileURLWithPath: output)
        let temporary = outputURL.deletingLastPathComponent().appendingPathComponent(".\(outputURL.lastPathComponent).reel-pack.mp4").path
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        var settings = VideoFileWriter.Settings(width: packing.videoWidth, height: packing.videoHeight, timeBase: Rational(1, framesPerSecond),
                                                frameRate: Rational(framesPerSecond, 1), crf: crf, preset: preset)
        settings.encoder = codec == .h264 ? "libx264" : "libx265"
        if codec == .h265 { settings.encoderOptions = ["x265-params": "log-level=error"] }
        let writer: AudioPassthroughWriter
        if let audio {
            let demuxer = try Demuxer(url: audio)
            guard let index = demuxer.bestStream(of: .audio) else { throw VAPError.invalidField(path: "audio", reason: "\(audio) has no audio stream") }
            writer = AudioPassthroughWriter(video: try VideoFileWriter(path: temporary, video: settings, copying: index, of: demuxer), audio: (demuxer, index))
        } else {
            writer = AudioPassthroughWriter(video: try VideoFileWriter(path: temporary, video: settings), audio: nil)
        }
        let canvas = try PixelBuffer(format: .rgba, width: packing.videoWidth, height: packing.videoHeight)
        for (index, path) in paths.enumerated() {
            let read = index == 0 ? first : try ImageFile.premultipliedRGBA(path: path)
            guard read.width == first.width, read.height == first.height else {
                throw VAPError.invalidField(path: "input", reason: "\(path) is \(read.width)x\(read.height), the first frame \(first.width)x\(first.height)")
            }
            let frame = size == (first.width, first.height) ? read : try scaler.scaled(read, width: size.width, height: size.height)
            try packing.compose(frame, into: canvas)
            for (slot, sourceMasks) in masks.enumerated() {
                if let mask = sourceMasks[index] { packing.drawMask(mask.strength, width: mask.box.width, height: mask.box.height, slot: slot, into: canvas) }
            }
            try writer.copyAudio(until: Double(index) / Double(framesPerSecond))
            try writer.video.write(canvas, pts: Int64(index))
            progress(Double(index + 1) / Double(paths.count))
        }
        try writer.finish()
        let config = fusionConfig(packing, masks: masks, slotSizes: slotSizes, frameCount: paths.count)
        try config.validate()
        let packed = try MP4BoxInsertion.insert(type: "vapc", body: config.json(), into: [UInt8](Data(contentsOf: URL(fileURLWithPath: temporary))))
        try Data(packed).write(to: outputURL, options: .atomic)
        return paths.count
    }

    /// The first number from 0 to 4 that names an existing file of the input pattern.
    private var firstNumber: Int? {
        (0...4).first { FileManager.default.fileExists(atPath: String(format: input, $0)) }
    }

    /// Each source's slot: its largest mask box.
    private static func slotSizes(_ masks: [[Int: VAPMask]]) -> [(width: Int, height: Int)] {
        masks.map { masks in (width: max(masks.values.map(\.box.width).max() ?? 1, 1), height: max(masks.values.map(\.box.height).max() ?? 1, 1)) }
    }

    /// The masks of `source` for every frame that has one, by frame index; scaled to
    /// `size` when the frames are.
    private func loadMasks(_ source: FusionSource, frames: [String], width: Int, height: Int,
                           scaledTo size: (width: Int, height: Int)?, by scaler: PremultipliedScaler) throws -> [Int: VAPMask] {
        guard source.masks.range(of: "%[0-9]*d", options: .regularExpression) != nil else {
            throw VAPError.invalidField(path: "mask \(source.tag)", reason: "\(source.masks) is not a frame pattern such as masks/%04d.png")
        }
        // Masks are numbered as the frames are.
        let start = firstNumber ?? 0
        var masks: [Int: VAPMask] = [:]
        for index in frames.indices {
            let path = String(format: source.masks, start + index)
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let picture = try ImageFile.premultipliedRGBA(path: path)
            guard picture.width == width, picture.height == height else {
                throw VAPError.invalidField(path: "mask \(source.tag)", reason: "\(path) is \(picture.width)x\(picture.height), the frames \(width)x\(height)")
            }
            masks[index] = VAPMask(picture: try size.map { try scaler.scaled(picture, width: $0.width, height: $0.height) } ?? picture)
        }
        guard !masks.isEmpty else { throw VAPError.invalidField(path: "mask \(source.tag)", reason: "no picture of \(source.masks) shows a mask") }
        return masks
    }

    private func fusionConfig(_ packing: VAPPackLayout, masks: [[Int: VAPMask]], slotSizes: [(width: Int, height: Int)], frameCount: Int) -> VAPConfig {
        let sources = fusion.enumerated().map { index, source in
            VAPConfig.Source(id: "\(index + 1)", kind: source.kind, loadType: "local", tag: source.tag, color: source.color,
                             style: source.bold ? "b" : nil, width: source.size?.width ?? slotSizes[index].width,
                             height: source.size?.height ?? slotSizes[index].height, fit: source.fit)
        }
        let frames = (0..<frameCount).compactMap { frame -> VAPConfig.Frame? in
            let objects = masks.enumerated().compactMap { slot, sourceMasks -> VAPConfig.Object? in
                guard let mask = sourceMasks[frame] else { return nil }
                let origin = packing.maskSlots[slot]
                return VAPConfig.Object(sourceID: "\(slot + 1)", z: slot, frame: mask.box,
                                        maskFrame: PixelRect(x: origin.x, y: origin.y, width: mask.box.width, height: mask.box.height))
            }
            return objects.isEmpty ? nil : VAPConfig.Frame(index: frame, objects: objects)
        }
        return packing.config(frameCount: frameCount, framesPerSecond: framesPerSecond, sources: sources, frames: frames)
    }
}
