import Testing
import ReelCore

@Suite struct WallComposerTests {
    @Test func tilesHaveEvenEdgesAndCoverTheCanvas() {
        let layout = WallLayout(columns: 3, rows: 3)!
        var covered = 0
        for index in 0..<9 {
            let tile = WallComposer.tile(index, of: 9, layout: layout, width: 1282, height: 722)
            #expect(tile.x % 2 == 0 && tile.y % 2 == 0 && tile.width % 2 == 0 && tile.height % 2 == 0, "tile \(index): \(tile)")
            covered += tile.width * tile.height
        }
        #expect(covered == 1282 * 722)
        #expect(WallComposer.tile(0, of: 1, layout: layout, width: 1280, height: 720) == PixelRect(x: 0, y: 0, width: 1280, height: 720))
    }

    @Test func clicksFindTheirTileInAWindowOfAnySize() {
        let layout = WallLayout(columns: 2, rows: 2)!
        func tile(_ x: Int, _ y: Int, window: (Int, Int) = (1280, 720), visible: Int = 4) -> Int? {
            WallComposer.tileIndex(atX: x, y: y, windowWidth: window.0, windowHeight: window.1, visibleCount: visible, layout: layout,
                                   width: 1280, height: 720)
        }
        #expect(tile(0, 0) == 0 && tile(639, 359) == 0 && tile(640, 359) == 1 && tile(639, 360) == 2 && tile(1279, 719) == 3)
        // The window at half the wall's size: the same tiles at half the coordinates.
        #expect(tile(319, 179, window: (640, 360)) == 0 && tile(320, 180, window: (640, 360)) == 3)
        // Three cameras on a 2×2 grid: the fourth tile is empty.
        #expect(tile(1000, 600, visible: 3) == nil)
        #expect(tile(1280, 0) == nil && tile(-1, 5) == nil)
        // One tile filling the window: anywhere is that tile.
        #expect(tile(1000, 600, visible: 1) == 0)
    }

    @Test func picturesKeepTheirShapeCentredOnEvenPixels() {
        let tile = PixelRect(x: 640, y: 360, width: 640, height: 360)
        // 4:3 in a 16:9 tile: pillarboxed, 480 wide, 80 on each side.
        #expect(WallComposer.picture(width: 320, height: 240, aspect: 4.0 / 3, in: tile) == PixelRect(x: 720, y: 360, width: 480, height: 360))
        // 16:9 in 16:9: the whole tile.
        #expect(WallComposer.picture(width: 1920, height: 1080, aspect: 16.0 / 9, in: tile) == tile)
        let odd = WallComposer.picture(width: 333, height: 100, aspect: 3.33, in: PixelRect(x: 2, y: 2, width: 100, height: 100))
        #expect(odd.x % 2 == 0 && odd.y % 2 == 0 && odd.width % 2 == 0 && odd.height % 2 == 0 && odd.width <= 100, "\(odd)")
    }

    /// Each picture lands where it is placed, byte for byte; the rest of its tile is black;
    /// a tile without a picture is black; nothing outside the tiles drawn changes.
    @Test func picturesAreCopiedIntoTheirPlacesAndTheRestIsBlack() throws {
        var random = SplitMix(seed: 45)
        let canvas = try OverlayCompositionTests.randomPicture(format: .i420, width: 64, height: 32, random: &random)
        let before = OverlayCompositionTests.bytes(of: canvas)
        let picture = try OverlayCompositionTests.randomPicture(format: .i420, width: 20, height: 16, random: &random)
        let first = PixelRect(x: 0, y: 0, width: 32, height: 16), second = PixelRect(x: 32, y: 0, width: 32, height: 16)
        let at = PixelRect(x: 6, y: 0, width: 20, height: 16)
        try WallComposer.draw([(first, picture, at), (second, nil, nil)], into: canvas)
        let y = canvas.planes[0], u = canvas.planes[1]
        for row in 0..<16 {
            for column in 0..<64 {
                let expected = (6..<26).contains(column) ? picture.planes[0].row(row)[column - 6] : 16
                #expect(y.row(row)[column] == expected, "luma \(column),\(row)")
            }
        }
        for column in 0..<32 { #expect(u.row(0)[column] == ((3..<13).contains(column) ? picture.planes[1].row(0)[column - 3] : 128)) }
        // Rows 16–31 belong to no tile drawn: as they were.
        let after = OverlayCompositionTests.bytes(of: canvas)
        #expect(Array(after[(64 * 16)..<(64 * 32)]) == Array(before[(64 * 16)..<(64 * 32)]))
    }
}
