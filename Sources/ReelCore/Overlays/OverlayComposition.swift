/// Draws premultiplied RGBA pictures (gifts) over a picture of any layout Reel converts
/// itself, converting to BGRA only the parts they cover.
///
/// The parts are rectangles on the 2×2 grid of 4:2:0 chroma, merged where they overlap, so
/// that each pixel goes to BGRA and back once however many pictures cover it. Both
/// conversions are local to a 2×2 block (each chroma sample colours its own block, and is
/// made from its own block), so a part's result is the same bytes as converting the whole
/// picture, blending and converting back; the pixels outside every part are the source's.
public enum OverlayComposition {
    /// A picture to draw with its top-left corner at (`x`, `y`) (it may lie partly outside).
    public struct Layer {
        /// Premultiplied RGBA.
        public var picture: PixelBuffer
        /// Column of its left edge in the picture drawn on.
        public var x: Int
        /// Row of its top edge in the picture drawn on.
        public var y: Int

        /// `picture` with its top-left corner at (`x`, `y`).
        public init(picture: PixelBuffer, x: Int, y: Int) {
            self.picture = picture
            self.x = x
            self.y = y
        }
    }

    /// A part of the picture converted once, and the layers (their indices, in drawing order) drawn there.
    public struct Part: Equatable, Sendable {
        /// Where it lies, on the chroma grid.
        public var area: PixelRect
        /// The indices of the layers drawn there, in drawing order.
        public var layers: [Int]

        /// A part at `area` with `layers`.
        public init(area: PixelRect, layers: [Int]) {
            self.area = area
            self.layers = layers
        }
    }

    /// `layers` drawn in order over a copy of `source` (from `pool` when given); `source` is
    /// left as it is.
    public static func draw(_ layers: [Layer], over source: PixelBuffer, pool: PixelBufferPool? = nil) throws -> PixelBuffer {
        let result = try source.converted(to: source.format, pool: pool)
        try draw(layers, into: result, pool: pool)
        return result
    }

    /// `layers` drawn in order into `picture` itself (a buffer you made: see ``PixelBuffer``).
    public static func draw(_ layers: [Layer], into picture: PixelBuffer, pool: PixelBufferPool? = nil) throws {
        let rects = layers.map { PixelRect(x: $0.x, y: $0.y, width: $0.picture.width, height: $0.picture.height) }
        for part in parts(covering: rects, width: picture.width, height: picture.height) {
            let area = part.area
            let target = try picture.region(area)
            // Packed RGB is drawn on in place; YUV through BGRA.
            let canvas = try picture.format.isYUV ? picture.converted(to: .bgra, crop: area, pool: pool) : target
            for index in part.layers {
                PremultipliedBlend.blend(layers[index].picture, onto: canvas, x: layers[index].x - area.x, y: layers[index].y - area.y)
            }
            if picture.format.isYUV { try canvas.convert(into: target) }
        }
    }

    /// The parts of a `width` × `height` picture that `rects` cover: each clipped to the
    /// picture, grown to even edges (or the picture's edge), and merged with every part it
    /// overlaps until none overlap. Empty rectangles cover nothing.
    public static func parts(covering rects: [PixelRect], width: Int, height: Int) -> [Part] {
        var parts: [Part] = []
        for (index, rect) in rects.enumerated() {
            let left = max(rect.x, 0) & ~1, top = max(rect.y, 0) & ~1
            let right = min((min(rect.x + rect.width, width) + 1) & ~1, width)
            let bottom = min((min(rect.y + rect.height, height) + 1) & ~1, height)
            guard left < right, top < bottom, rect.width > 0, rect.height > 0 else { continue }
            var merged = Part(area: PixelRect(x: left, y: top, width: right - left, height: bottom - top), layers: [index])
            while let overlapping = parts.firstIndex(where: { overlap($0.area, merged.area) }) {
                let other = parts.remove(at: overlapping)
                merged = Part(area: union(other.area, merged.area), layers: (other.layers + merged.layers).sorted())
            }
            parts.append(merged)
        }
        return parts
    }

    private static func overlap(_ a: PixelRect, _ b: PixelRect) -> Bool {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    }

    private static func union(_ a: PixelRect, _ b: PixelRect) -> PixelRect {
        let left = min(a.x, b.x), top = min(a.y, b.y)
        return PixelRect(x: left, y: top, width: max(a.x + a.width, b.x + b.width) - left, height: max(a.y + a.height, b.y + b.height) - top)
    }
}
