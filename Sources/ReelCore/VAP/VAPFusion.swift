/// Fuses texts and images into composited VAP frames, as VAP's fusion animations
/// define: in each frame that lists objects, each object's source (fitted into the
/// object's `frame`) is laid over the picture in `z` order, its alpha multiplied by the
/// mask, which is the red channel of the video inside the object's `mFrame`.
public struct VAPFusion: Sendable {
    /// The configuration that places the sources.
    public let config: VAPConfig
    /// Premultiplied RGBA pictures by source id.
    private let sources: [String: PixelBuffer]
    private let objectsByFrame: [Int: [VAPConfig.Object]]
    /// Sources already fitted to an object's frame size.
    private var fitted: [FittedKey: PixelBuffer] = [:]

    private struct FittedKey: Hashable {
        var sourceID: String
        var width: Int
        var height: Int
    }

    /// - Parameters:
    ///   - config: the file's `vapc` configuration.
    ///   - sources: the picture of every source in `config` by source id (premultiplied
    ///     RGBA, any size); texts rendered beforehand.
    public init(config: VAPConfig, sources: [String: PixelBuffer]) throws {
        for source in config.sources where sources[source.id] == nil { throw VAPError.missingSource(tag: source.tag) }
        for (id, picture) in sources where picture.format != .rgba {
            throw VAPError.invalidField(path: "src \(id)", reason: "pictures for fusion are RGBA, got \(picture.format.rawValue)")
        }
        self.config = config
        self.sources = sources
        // Looked up for every frame shown, so gathered once.
        objectsByFrame = Dictionary(Set(config.frames.map(\.index)).map { ($0, config.objects(inFrame: $0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// Lays frame `index`'s objects over `output` (premultiplied RGBA or BGRA of the
    /// output size), masks read from `picture` (the decoded YUV picture).
    public mutating func apply(frame index: Int, picture: PixelBuffer, onto output: PixelBuffer) throws {
        guard let objects = objectsByFrame[index] else { return }
        guard [.i420, .nv12, .nv21].contains(picture.format) else { throw PixelConversionError.unsupportedFormat(picture.format.rawValue) }
        let coefficients = YUVToRGBCoefficients(matrix: picture.matrix, range: picture.range)
        let chroma = picture.chromaSource
        for object in objects {
            guard let source = sources[object.sourceID], let description = config.source(id: object.sourceID) else { continue }
            guard object.frame.fits(width: output.width, height: output.height),
                  object.maskFrame.fits(width: picture.width, height: picture.height) else {
                throw VAPError.invalidField(path: "frame \(index) object \(object.sourceID)", reason: "its rectangles lie outside the picture")
            }
            let key = FittedKey(sourceID: object.sourceID, width: object.frame.width, height: object.frame.height)
            let content: PixelBuffer
            if let cached = fitted[key] {
                content = cached
            } else {
                content = try RGBAResampler.fit(source, width: key.width, height: key.height, cropToFill: description.fit == .centerFull)
                fitted[key] = content
            }
            let redFirst = output.format == .rgba
            let rotated = object.maskRotation == 90
            let mask = object.maskFrame, area = object.frame
            for row in 0..<area.height {
                let out = output.planes[0].row(area.y + row) + 4 * area.x
                let source = content.planes[0].row(row)
                for column in 0..<area.width {
                    // The mask scaled to the object's frame; a 90° mask is stored turned clockwise.
                    let (maskX, maskY) = rotated
                        ? ((area.height - 1 - row) * mask.width / area.height, column * mask.height / area.width)
                        : (column * mask.width / area.width, row * mask.height / area.height)
                    let x = mask.x + maskX, y = mask.y + maskY
                    let luma = Int32(picture.planes[0].row(y)[x])
                    let v = Int32(chroma.v.row(y / 2)[chroma.vOffset + x / 2 * chroma.step])
                    let red = min(max(((luma - Int32(coefficients.lumaOffset)) * Int32(coefficients.yCoefficient)
                        + (v - 128) * Int32(coefficients.vToR) + 4096) >> 13, 0), 255)
                    let sourcePixel = source + 4 * column, pixel = out + 4 * column
                    // Source × mask, then "over" in premultiplied terms.
                    let alpha = (Int32(sourcePixel[3]) * red + 127) / 255
                    guard alpha > 0 else { continue }
                    let keep = 255 - alpha
                    for channel in 0..<3 {
                        let value = (Int32(sourcePixel[redFirst ? channel : 2 - channel]) * red + 127) / 255
                        pixel[channel] = UInt8(min(value + (Int32(pixel[channel]) * keep + 127) / 255, 255))
                    }
                    pixel[3] = UInt8(min(alpha + (Int32(pixel[3]) * keep + 127) / 255, 255))
                }
            }
        }
    }
}
