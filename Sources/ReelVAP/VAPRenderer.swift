import ReelCore
import ReelFFmpeg
import ReelText

/// A VAP animation turned into RGBA pictures, frame after frame: decoded with
/// ``VAPFrameDecoder``, composited with `VAPCompositor`, fused with `VAPFusion`.
///
/// Not `Sendable`: one thread renders, frame after frame, as a player or an export does.
public final class VAPRenderer {
    /// The decoder of the file's video.
    public let decoder: VAPFrameDecoder
    /// Where the colour and alpha lie in each frame.
    public let layout: VAPLayout
    /// Whether the output is premultiplied (as players draw) or straight (as PNG stores).
    public let alphaMode: VAPCompositor.AlphaMode
    private var compositor: VAPCompositor
    private var fusion: VAPFusion?
    private let pool = PixelBufferPool()

    /// Opens `path`.
    /// - Parameters:
    ///   - path: the VAP file.
    ///   - layout: overrides the `vapc` box (or, without one, VAP's default: alpha left).
    ///   - content: what to fuse into a fusion animation; sources without content are left out.
    ///   - alphaMode: premultiplied (for compositing) or straight (for files) RGBA.
    ///   - threads: the decoder's threads.
    public init(path: String, layout: VAPLayout? = nil, content: VAPFusionContent = VAPFusionContent(),
                alpha alphaMode: VAPCompositor.AlphaMode = .premultiplied, threads: Int = 1) throws {
        decoder = try VAPFrameDecoder(path: path, threads: threads)
        let layout = layout ?? decoder.file.layout()
        guard layout.fits(width: decoder.file.videoWidth, height: decoder.file.videoHeight) else {
            throw VAPError.invalidField(path: "layout", reason: "the regions do not fit the \(decoder.file.videoWidth)x\(decoder.file.videoHeight) video")
        }
        self.layout = layout
        self.alphaMode = alphaMode
        compositor = VAPCompositor(layout: layout)
        if let config = decoder.file.config, !config.sources.isEmpty {
            let pictures = try Self.sourcePictures(config, content)
            var trimmed = config
            trimmed.sources = config.sources.filter { pictures[$0.id] != nil }
            trimmed.frames = config.frames.map { frame in
                VAPConfig.Frame(index: frame.index, objects: frame.objects.filter { pictures[$0.sourceID] != nil })
            }
            fusion = try VAPFusion(config: trimmed, sources: pictures)
        }
    }

    /// Detects the layout of a file without `vapc` from pictures spread over the
    /// animation (the gray half is the alpha; animations often start empty).
    public static func detectLayout(path: String, pictures: Int = 7) throws -> VAPLayout {
        let decoder = try VAPFrameDecoder(path: path)
        var detector = VAPLayoutDetector()
        for sample in 1...pictures {
            try decoder.seek(toFrame: decoder.frameCount * sample / (pictures + 1))
            guard let (_, picture) = try decoder.nextFrame() else { break }
            try detector.add(picture)
        }
        guard let side = detector.side else {
            throw VAPError.unsupportedVideo("no half of the picture is gray; give the layout (alpha left, right, top or bottom)")
        }
        return VAPLayout(alpha: side, videoWidth: decoder.file.videoWidth, videoHeight: decoder.file.videoHeight)
    }

    /// The next frame as RGBA of the layout's output size, `nil` after the last.
    public func nextFrame() throws -> (index: Int, picture: PixelBuffer)? {
        guard let (index, decoded) = try decoder.nextFrame() else { return nil }
        let output = try pool.makeBuffer(format: .rgba, width: layout.outputWidth, height: layout.outputHeight)
        try compositor.composite(decoded, into: output)
        try fusion?.apply(frame: index, picture: decoded, onto: output)
        if alphaMode == .straight { PremultipliedAlpha.unpremultiply(output) }
        return (index, output)
    }

    /// Renders frame `index` next (decoding from the keyframe before it).
    public func seek(toFrame index: Int) throws { try decoder.seek(toFrame: index) }

    private static func sourcePictures(_ config: VAPConfig, _ content: VAPFusionContent) throws -> [String: PixelBuffer] {
        var pictures = [String: PixelBuffer]()
        var text: TextRasterizer?
        for source in config.sources {
            switch source.kind {
            case .text:
                guard let string = content.texts[source.tag] else { continue }
                if text == nil { text = try TextRasterizer() }
                pictures[source.id] = try text!.render(string, color: source.color.flatMap(VAPColor.init(hex:)) ?? .white, bold: source.isBold,
                                                       width: source.width, height: source.height, pixelSize: content.fontSize)
            case .image:
                if let path = content.imageFiles[source.tag] {
                    pictures[source.id] = try ImageFile.premultipliedRGBA(path: path)
                } else if let picture = content.imageProvider?(source.tag) {
                    guard picture.format == .rgba else { throw VAPError.invalidField(path: "image \(source.tag)", reason: "pictures for fusion are RGBA") }
                    pictures[source.id] = picture
                }
            }
        }
        return pictures
    }
}

@available(*, unavailable, message: "one owner uses it, in order")
extension VAPRenderer: Sendable {}
