/// How a camera wall arranges its tiles in one window: a grid of `columns` × `rows` equal
/// tiles, filled row by row (NVR viewers' 1, 2×2, 3×3 and 4×4), or the smallest of those
/// that holds every camera.
public struct WallLayout: Sendable, Hashable {
    /// Tiles across.
    public let columns: Int
    /// Tiles down.
    public let rows: Int

    /// The most tiles a side can have: 8 × 8 cameras in one window.
    public static let largestSide = 8

    /// A grid; nil when a side is below 1 or above ``largestSide``.
    public init?(columns: Int, rows: Int) {
        guard (1...Self.largestSide).contains(columns), (1...Self.largestSide).contains(rows) else { return nil }
        self.columns = columns
        self.rows = rows
    }

    /// The smallest square grid from 1 × 1 up that holds `cameras` tiles (2 to 4 cameras
    /// take 2 × 2, 5 to 9 take 3 × 3), at most ``largestSide`` a side.
    public static func automatic(cameras: Int) -> WallLayout {
        var side = 1
        while side * side < cameras && side < largestSide { side += 1 }
        return WallLayout(columns: side, rows: side)!
    }

    /// Reads `auto`, `1`, `N` (N × N) or `CxR` (`2x2`, `4x3`); nil for anything else.
    /// `auto` sizes the grid for `cameras`.
    public init?(parsing text: String, cameras: Int) {
        let text = text.lowercased()
        if text == "auto" {
            self = Self.automatic(cameras: cameras)
            return
        }
        let sides = text.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 1 || sides.count == 2, sides.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
              let columns = Int(sides[0]), let rows = sides.count == 2 ? Int(sides[1]) : columns else { return nil }
        self.init(columns: columns, rows: rows)
    }

    /// Tiles the grid has.
    public var capacity: Int { columns * rows }

    /// Where tile `index` (row by row from the top left) lies in a `width` × `height`
    /// window: edges at whole pixels, each tile within one pixel of the others' size, and
    /// together covering the window exactly.
    public func tile(_ index: Int, width: Int, height: Int) -> PixelRect {
        let column = index % columns, row = index / columns
        let left = column * width / columns, right = (column + 1) * width / columns
        let top = row * height / rows, bottom = (row + 1) * height / rows
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The tile under the window point (`x`, `y`), or nil outside the window.
    public func tileIndex(atX x: Int, y: Int, width: Int, height: Int) -> Int? {
        guard width > 0, height > 0, (0..<width).contains(x), (0..<height).contains(y) else { return nil }
        // The column whose edges hold x: the inverse of `tile`'s floor division.
        let column = ((x + 1) * columns - 1) / width, row = ((y + 1) * rows - 1) / height
        return row * columns + column
    }
}
