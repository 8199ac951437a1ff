/// Lays out and draws the picture a camera wall shows: a 4:2:0 canvas of even size, each
/// visible camera's picture fitted into its tile (its shape kept, black around it), edges on
/// even pixels so that tiles share no chroma sample.
public enum WallComposer {
    /// Where the `index`th of the visible tiles lies: `layout`'s tile on a grid of pixel
    /// pairs, so that its edges are even; one tile that fills the window covers all of it.
    public static func tile(_ index: Int, of visibleCount: Int, layout: WallLayout, width: Int, height: Int) -> PixelRect {
        let grid = visibleCount == 1 && index == 0 ? WallLayout(columns: 1, rows: 1)! : layout
        let pairs = grid.tile(index, width: width / 2, height: height / 2)
        return PixelRect(x: pairs.x * 2, y: pairs.y * 2, width: pairs.width * 2, height: pairs.height * 2)
    }

    /// Which of the visible tiles is under the point (`x`, `y`) of a window `windowWidth` ×
    /// `windowHeight` showing a `width` × `height` wall stretched to fill it; nil outside.
    public static func tileIndex(atX x: Int, y: Int, windowWidth: Int, windowHeight: Int, visibleCount: Int, layout: WallLayout,
                                 width: Int, height: Int) -> Int? {
        guard windowWidth > 0, windowHeight > 0, (0..<windowWidth).contains(x), (0..<windowHeight).contains(y) else { return nil }
        let column = x * width / windowWidth, row = y * height / windowHeight
        return (0..<visibleCount).first { index in
            let rect = tile(index, of: visibleCount, layout: layout, width: width, height: height)
            return (rect.x..<rect.x + rect.width).contains(column) && (rect.y..<rect.y + rect.height).contains(row)
        }
    }

    /// Where a `pictureWidth` × `pictureHeight` picture shown at `aspect` (width over height)
    /// lies in `tile`: as large as fits with its shape kept, centred, on even pixels, at
    /// least 2 × 2.
    public static func picture(width pictureWidth: Int, height pictureHeight: Int, aspect: Double, in tile: PixelRect) -> PixelRect {
        let placed = VideoGravity.fit.placement(pictureWidth: pictureWidth, pictureHeight: pictureHeight, aspect: aspect,
                                                width: tile.width, height: tile.height).destination
        let width = max(placed.width & ~1, 2), height = max(placed.height & ~1, 2)
        return PixelRect(x: tile.x + ((tile.width - width) / 2 & ~1), y: tile.y + ((tile.height - height) / 2 & ~1), width: width, height: height)
    }

    /// Draws each tile of `tiles` into `canvas` (4:2:0, even size): black, then its picture,
    /// when it has one, at the picture's own size where `at` says (within the tile).
    public static func draw(_ tiles: [(tile: PixelRect, picture: PixelBuffer?, at: PixelRect?)], into canvas: PixelBuffer) throws {
        for (tile, picture, at) in tiles {
            try fillBlack(tile, of: canvas)
            guard let picture, let at else { continue }
            try picture.convert(into: try canvas.region(at))
        }
    }

    /// A colour as 8-bit Y, Cb, Cr.
    public struct Colour: Sendable, Equatable {
        /// Luma.
        public var y: UInt8
        /// Blue difference.
        public var u: UInt8
        /// Red difference.
        public var v: UInt8

        /// A colour from its three samples.
        public init(y: UInt8, u: UInt8, v: UInt8) {
            self.y = y
            self.u = u
            self.v = v
        }
    }

    /// Paints `area` of a 4:2:0 `canvas` black (luma at the bottom of its range, chroma grey).
    public static func fillBlack(_ area: PixelRect, of canvas: PixelBuffer) throws {
        try fill(area, of: canvas, with: Colour(y: canvas.range == .full ? 0 : 16, u: 128, v: 128))
    }

    /// Paints `area` (on even pixels) of a planar 4:2:0 `canvas` (8-bit I420) one colour.
    public static func fill(_ area: PixelRect, of canvas: PixelBuffer, with colour: Colour) throws {
        guard canvas.format == .i420 else { throw PixelConversionError.unsupportedConversion(from: canvas.format, to: canvas.format) }
        let region = try canvas.region(area)
        for (plane, value) in zip(region.planes, [colour.y, colour.u, colour.v]) {
            for row in 0..<plane.rowCount { plane.row(row).update(repeating: value, count: plane.rowByteCount) }
        }
    }

    /// The four bars of a frame `thickness` pixels wide (even) just inside `tile`.
    public static func frame(around tile: PixelRect, thickness: Int) -> [PixelRect] {
        let bar = min(thickness, tile.width / 2, tile.height / 2) & ~1
        guard bar > 0 else { return [] }
        return [PixelRect(x: tile.x, y: tile.y, width: tile.width, height: bar),
                PixelRect(x: tile.x, y: tile.y + tile.height - bar, width: tile.width, height: bar),
                PixelRect(x: tile.x, y: tile.y, width: bar, height: tile.height),
                PixelRect(x: tile.x + tile.width - bar, y: tile.y, width: bar, height: tile.height)]
    }
}
