/// Turns decoded VAP pictures into RGBA: colour from the colour region (YUV → RGB with
/// the picture's matrix and range, each chroma sample colouring its 2×2 block), alpha
/// from the alpha region's luma (as VAP's shaders read it: the red of a gray pixel, so
/// limited range stretched to 0–255) scaled bilinearly to the colour region's size.
///
/// VAP colour is premultiplied over black already, so the premultiplied result keeps it
/// as it is (where compression or the encoder's blur leaves colour above alpha, it adds a
/// little light when composited, as on VAP's GPU); ``AlphaMode/straight`` divides by
/// alpha afterwards. One compositor per thread.
public struct VAPCompositor: Sendable {
    /// Whether composited pictures are premultiplied or straight.
    public enum AlphaMode: String, Sendable, Codable, CaseIterable {
        /// Colour multiplied by alpha, as VAP stores it and as compositing wants it.
        case premultiplied
        /// Colour independent of alpha, as PNG defines it.
        case straight
    }

    /// Where the colour and alpha lie in each decoded frame.
    public let layout: VAPLayout
    private var alphaScaler: VAPAlphaScaler
    private var alphaRow: [UInt8]

    /// A compositor for frames laid out as `layout` says.
    public init(layout: VAPLayout) {
        self.layout = layout
        alphaScaler = VAPAlphaScaler(source: layout.alphaFrame, outputWidth: layout.outputWidth, outputHeight: layout.outputHeight)
        alphaRow = [UInt8](repeating: 0, count: layout.outputWidth + 32)
    }

    /// A new RGBA buffer of the output size, composited from `picture`.
    public mutating func composite(_ picture: PixelBuffer, alpha mode: AlphaMode = .premultiplied,
                                   pool: PixelBufferPool? = nil) throws -> PixelBuffer {
        let output = try pool?.makeBuffer(format: .rgba, width: layout.outputWidth, height: layout.outputHeight)
            ?? PixelBuffer(format: .rgba, width: layout.outputWidth, height: layout.outputHeight)
        try composite(picture, into: output, alpha: mode)
        return output
    }

    /// Composites `picture` (8-bit I420, NV12 or NV21) into `output` (RGBA or BGRA of the
    /// output size).
    public mutating func composite(_ picture: PixelBuffer, into output: PixelBuffer, alpha mode: AlphaMode = .premultiplied) throws {
        guard [.i420, .nv12, .nv21].contains(picture.format) else { throw PixelConversionError.unsupportedFormat(picture.format.rawValue) }
        guard output.format == .rgba || output.format == .bgra else { throw PixelConversionError.unsupportedConversion(from: picture.format, to: output.format) }
        guard layout.fits(width: picture.width, height: picture.height) else {
            throw PixelConversionError.cropOutside(layout.rgbFrame, width: picture.width, height: picture.height)
        }
        guard output.width == layout.outputWidth, output.height == layout.outputHeight else {
            throw PixelConversionError.destinationSize(expected: (layout.outputWidth, layout.outputHeight), got: (output.width, output.height))
        }
        let kernel = VAPColourKernel(matrix: picture.matrix, range: picture.range)
        let chroma = picture.chromaSource
        let origin = layout.rgbFrame
        let luma = picture.planes[0], alphaLuma = picture.planes[0]
        alphaRow.withUnsafeMutableBufferPointer { scratch in
            for row in 0..<layout.outputHeight {
                alphaScaler.row(row, luma: alphaLuma, limitedRange: picture.range != .full, into: scratch.baseAddress!)
                let alpha = UnsafePointer(scratch.baseAddress!)
                let sourceRow = origin.y + row, chromaRow = sourceRow / 2
                let y = UnsafePointer(luma.row(sourceRow) + origin.x)
                let u = UnsafePointer(chroma.u.row(chromaRow) + chroma.uOffset), v = UnsafePointer(chroma.v.row(chromaRow) + chroma.vOffset)
                kernel.compose(y: y, firstColumn: origin.x, u: u, v: v, chromaStep: chroma.step, alpha: alpha,
                               out: output.planes[0].row(row), width: layout.outputWidth, bgra: output.format == .bgra)
            }
        }
        if mode == .straight { PremultipliedAlpha.unpremultiply(output) }
    }
}
