import ReelCore
import ReelFFmpeg
import ReelText

/// Paints a wall's picture on its thread: tiles' pictures into place (scaled again here only
/// when a tile changed size since its picture was made), each tile's line on a dark strip,
/// a frame around the chosen tile. Memory comes from pools, so a steady wall allocates
/// nothing per picture.
final class WallPainter {
    struct Tile {
        var camera: Int
        var latest: WallStreamOutput.Latest?
        var label: String?
    }

    struct Scene {
        var tiles: [Tile]
        /// The chosen camera, framed (nil when it fills the window, or none is chosen).
        var chosen: Int?
    }

    private let width: Int
    private let height: Int
    private let pool = PixelBufferPool(capacity: 4)
    private let scratch = PixelBufferPool(capacity: 4, shapeLimit: 16)
    private let rescaler = SwscaleConverter()
    /// A tile's picture scaled here, kept while its frame and size are the same.
    private var rescaled: [Int: (serial: Int, picture: PixelBuffer)] = [:]
    private let text: TextRasterizer?
    /// Each tile's line as drawn, kept while its text and width are the same.
    private var lines: [Int: (text: String, width: Int, picture: PixelBuffer)] = [:]
    private var solids: [String: PixelBuffer] = [:]

    /// The chosen tile's frame: amber (255, 214, 0) in BT.709 limited-range Y, Cb, Cr.
    static let chosenColour = WallComposer.Colour(y: 194, u: 30, v: 155)
    static let stripColour: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 150)

    init(width: Int, height: Int, labels: Bool) {
        self.width = width
        self.height = height
        // Without its fonts a wall still shows its cameras, without lines.
        text = labels ? try? TextRasterizer() : nil
    }

    func paint(_ scene: Scene, layout: WallLayout) throws -> PixelBuffer {
        // One matrix for the whole picture: the cameras' (the first shown), BT.709 before any.
        let matrix = scene.tiles.lazy.compactMap { $0.latest.map { YUVMatrix($0.frame.color.matrix) } }.first ?? .bt709
        let canvas = try pool.makeBuffer(format: .i420, width: width, height: height, matrix: matrix, range: .limited)
        var tiles: [(tile: PixelRect, picture: PixelBuffer?, at: PixelRect?)] = []
        var layers: [OverlayComposition.Layer] = []
        for (index, item) in scene.tiles.enumerated() {
            let tile = WallComposer.tile(index, of: scene.tiles.count, layout: layout, width: width, height: height)
            if let latest = item.latest {
                let frame = latest.frame
                let at = WallComposer.picture(width: frame.width, height: frame.height, aspect: WallStreamOutput.aspect(of: frame), in: tile)
                tiles.append((tile, try picture(of: item.camera, latest, width: at.width, height: at.height), at))
            } else {
                tiles.append((tile, nil, nil))
            }
            if let label = item.label { layers += try line(label, camera: item.camera, in: tile) }
        }
        // The grid's tiles without a camera: black too (a pooled canvas holds an old picture).
        if scene.tiles.count > 1 {
            for index in scene.tiles.count..<max(layout.capacity, scene.tiles.count) {
                tiles.append((WallComposer.tile(index, of: scene.tiles.count, layout: layout, width: width, height: height), nil, nil))
            }
        }
        try WallComposer.draw(tiles, into: canvas)
        try OverlayComposition.draw(layers, into: canvas, pool: scratch)
        // The chosen tile's frame is opaque: painted straight into the planes, not through RGB.
        if let chosen = scene.tiles.firstIndex(where: { $0.camera == scene.chosen }) {
            let tile = WallComposer.tile(chosen, of: scene.tiles.count, layout: layout, width: width, height: height)
            for bar in WallComposer.frame(around: tile, thickness: 2) { try WallComposer.fill(bar, of: canvas, with: Self.chosenColour) }
        }
        return canvas
    }

    /// The tile's picture at `width` × `height`: the one its stream made, or scaled here.
    private func picture(of camera: Int, _ latest: WallStreamOutput.Latest, width: Int, height: Int) throws -> PixelBuffer {
        if let made = latest.picture, made.width == width, made.height == height { return made }
        if let kept = rescaled[camera], kept.serial == latest.serial, kept.picture.width == width, kept.picture.height == height { return kept.picture }
        let picture = try WallStreamOutput.scale(latest.frame, width: width, height: height, converter: rescaler, pool: scratch)
        rescaled[camera] = (latest.serial, picture)
        return picture
    }

    /// The tile's line, white on a dark strip along its bottom edge.
    private func line(_ label: String, camera: Int, in tile: PixelRect) throws -> [OverlayComposition.Layer] {
        guard let text else { return [] }
        let stripHeight = min(max(tile.height / 12, 14), 32) & ~1
        guard tile.width > 8, tile.height > stripHeight else { return [] }
        let strip = try solid(width: tile.width, height: stripHeight, colour: Self.stripColour)
        let textWidth = tile.width - 8
        let picture: PixelBuffer
        if let kept = lines[camera], kept.text == label, kept.width == textWidth {
            picture = kept.picture
        } else {
            picture = try text.render(label, color: VAPColor(red: 255, green: 255, blue: 255), bold: false, width: textWidth,
                                      height: stripHeight, pixelSize: stripHeight * 7 / 10, leftAligned: true)
            lines[camera] = (label, textWidth, picture)
        }
        let top = tile.y + tile.height - stripHeight
        return [.init(picture: strip, x: tile.x, y: top), .init(picture: picture, x: tile.x + 4, y: top)]
    }

    /// A premultiplied RGBA picture of one colour, made once per size.
    private func solid(width: Int, height: Int, colour: (UInt8, UInt8, UInt8, UInt8)) throws -> PixelBuffer {
        let key = "\(width)x\(height) \(colour)"
        if let kept = solids[key] { return kept }
        let picture = try PixelBuffer(format: .rgba, width: width, height: height)
        let alpha = UInt16(colour.3)
        let pixel = [colour.0, colour.1, colour.2].map { UInt8((UInt16($0) * alpha + 127) / 255) } + [colour.3]
        for row in 0..<height {
            let bytes = picture.planes[0].row(row)
            for column in 0..<width { for channel in 0..<4 { bytes[4 * column + channel] = pixel[channel] } }
        }
        solids[key] = picture
        return picture
    }
}
