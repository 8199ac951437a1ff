import CFreeType
import ReelCore

/// Draws a line of text with FreeType into a premultiplied RGBA picture: centred, at the
/// largest pixel size whose line fits the picture (or at a given size), antialiased.
/// One rasterizer per thread.
///
/// Not `Sendable`: use it from one thread at a time, as FFmpeg's contexts require.
public final class TextRasterizer {
    /// DejaVu Sans, which Debian's `fonts-dejavu-core` installs.
    public static let defaultRegularFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// DejaVu Sans Bold.
    public static let defaultBoldFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    private var library: FT_Library?
    private var regular: FT_Face?
    private var bold: FT_Face?

    /// Loads the two faces with FreeType; an error when a file is missing or not a font.
    public init(regularFont: String = defaultRegularFont, boldFont: String = defaultBoldFont) throws {
        guard FT_Init_FreeType(&library) == 0, let library else { throw TextError.freeType("cannot start FreeType") }
        guard FT_New_Face(library, regularFont, 0, &regular) == 0 else { throw TextError.font(regularFont) }
        guard FT_New_Face(library, boldFont, 0, &bold) == 0 else { throw TextError.font(boldFont) }
    }

    deinit {
        if let regular { FT_Done_Face(regular) }
        if let bold { FT_Done_Face(bold) }
        if let library { FT_Done_FreeType(library) }
    }

    /// `text` in `color` on a transparent `width`×`height` picture, centred or from the
    /// left edge. Without `pixelSize`, the largest size whose line fits both ways; text too
    /// long at 4 px is cut at the edges.
    public func render(_ text: String, color: VAPColor, bold isBold: Bool, width: Int, height: Int, pixelSize: Int? = nil,
                       leftAligned: Bool = false) throws -> PixelBuffer {
        let output = try PixelBuffer(format: .rgba, width: width, height: height)
        guard let face = isBold ? bold : regular else { throw TextError.freeType("no font") }
        let size: Int
        if let pixelSize {
            size = max(pixelSize, 1)
        } else {
            // Largest size that fits: widths grow with the size, so a binary search.
            var low = 4, high = max(height * 2, 4)
            while low < high {
                let middle = (low + high + 1) / 2
                let line = try measure(text, face: face, size: middle)
                if line.width <= width && line.height <= height { low = middle } else { high = middle - 1 }
            }
            size = low
        }
        let line = try measure(text, face: face, size: size)
        var penX = leftAligned ? 0 : (width - line.width) / 2
        let baseline = (height - line.height) / 2 + line.ascender
        for scalar in text.unicodeScalars {
            guard FT_Load_Char(face, FT_ULong(scalar.value), FT_Int32(reel_ft_load_render)) == 0, let glyph = face.pointee.glyph else { continue }
            let bitmap = glyph.pointee.bitmap
            let left = penX + Int(glyph.pointee.bitmap_left), top = baseline - Int(glyph.pointee.bitmap_top)
            for row in 0..<Int(bitmap.rows) {
                let y = top + row
                guard y >= 0, y < height, let buffer = bitmap.buffer else { continue }
                let coverageRow = buffer + row * Int(bitmap.pitch)
                let out = output.planes[0].row(y)
                for column in 0..<Int(bitmap.width) {
                    let x = left + column
                    guard x >= 0, x < width else { continue }
                    let alpha = Int(coverageRow[column]) * Int(color.alpha) / 255
                    guard alpha > 0 else { continue }
                    // Overlapping glyph edges: keep the stronger coverage.
                    guard alpha > Int(out[4 * x + 3]) else { continue }
                    out[4 * x] = UInt8((Int(color.red) * alpha + 127) / 255)
                    out[4 * x + 1] = UInt8((Int(color.green) * alpha + 127) / 255)
                    out[4 * x + 2] = UInt8((Int(color.blue) * alpha + 127) / 255)
                    out[4 * x + 3] = UInt8(alpha)
                }
            }
            penX += Int(glyph.pointee.advance.x >> 6)
        }
        return output
    }

    private func measure(_ text: String, face: FT_Face, size: Int) throws -> (width: Int, height: Int, ascender: Int) {
        guard FT_Set_Pixel_Sizes(face, 0, FT_UInt(size)) == 0 else { throw TextError.freeType("cannot set size \(size)") }
        var width = 0
        for scalar in text.unicodeScalars where FT_Load_Char(face, FT_ULong(scalar.value), FT_Int32(reel_ft_load_default)) == 0 {
            width += Int(face.pointee.glyph.pointee.advance.x >> 6)
        }
        let metrics = face.pointee.size.pointee.metrics
        let ascender = Int(metrics.ascender >> 6), descender = Int(-metrics.descender >> 6)
        return (width, ascender + descender, ascender)
    }
}

/// Why text could not be drawn.
public enum TextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// FreeType failed; its error in words.
    case freeType(String)
    /// A font file could not be loaded.
    case font(String)

    public var description: String {
        switch self {
        case .freeType(let detail): "FreeType: \(detail)"
        case .font(let path): "cannot load the font \(path)"
        }
    }
}

@available(*, unavailable, message: "use it from one thread at a time")
extension TextRasterizer: Sendable {}
