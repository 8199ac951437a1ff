import Testing
import ReelCore

@Suite struct WallLayoutTests {
    @Test func namedLayoutsAndAutomaticOnes() {
        #expect(WallLayout(parsing: "1", cameras: 5).map { [$0.columns, $0.rows] } == [1, 1])
        #expect(WallLayout(parsing: "2x2", cameras: 1).map { [$0.columns, $0.rows] } == [2, 2])
        #expect(WallLayout(parsing: "4X3", cameras: 1).map { [$0.columns, $0.rows] } == [4, 3])
        #expect(WallLayout(parsing: "3", cameras: 1).map { [$0.columns, $0.rows] } == [3, 3])
        for text in ["", "x", "2x", "x2", "0", "9x9", "2x2x2", "-1", "２x2", "1.5"] {
            #expect(WallLayout(parsing: text, cameras: 4) == nil, "\(text)")
        }
        let sides = [1, 2, 3, 4, 5, 9, 10, 16, 17, 64, 200].map { WallLayout.automatic(cameras: $0).columns }
        #expect(sides == [1, 2, 2, 2, 3, 3, 4, 4, 5, 8, 8])
        #expect(WallLayout(parsing: "auto", cameras: 7) == WallLayout.automatic(cameras: 7))
    }

    /// Tiles cover the window exactly, without overlap, each within a pixel of the others;
    /// every pixel's tile is the one `tileIndex` names.
    @Test(arguments: [(1, 1), (2, 2), (3, 3), (4, 4), (4, 3)])
    func tilesCoverTheWindowAndHitTestingAgrees(columns: Int, rows: Int) throws {
        let layout = try #require(WallLayout(columns: columns, rows: rows))
        for (width, height) in [(1280, 720), (1001, 333), (7, 5)] where width >= columns && height >= rows {
            var owner = [Int](repeating: -1, count: width * height)
            let tiles = (0..<layout.capacity).map { layout.tile($0, width: width, height: height) }
            for (index, tile) in tiles.enumerated() {
                #expect(tile.width >= width / columns && tile.width <= width / columns + 1)
                #expect(tile.height >= height / rows && tile.height <= height / rows + 1)
                for y in tile.y..<(tile.y + tile.height) {
                    for x in tile.x..<(tile.x + tile.width) {
                        #expect(owner[y * width + x] == -1, "pixel \(x),\(y) in two tiles")
                        owner[y * width + x] = index
                    }
                }
            }
            #expect(!owner.contains(-1), "\(columns)x\(rows) in \(width)x\(height): a pixel in no tile")
            for y in stride(from: 0, to: height, by: max(1, height / 17)) {
                for x in 0..<width where layout.tileIndex(atX: x, y: y, width: width, height: height) != owner[y * width + x] {
                    Issue.record("\(columns)x\(rows) in \(width)x\(height): \(x),\(y) hit-tests to another tile")
                }
            }
        }
        #expect(layout.tileIndex(atX: -1, y: 0, width: 100, height: 100) == nil)
        #expect(layout.tileIndex(atX: 0, y: 100, width: 100, height: 100) == nil)
    }
}
