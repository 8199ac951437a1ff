import Testing
@testable import ReelCore

@Suite struct DisplayPlacementTests {
    @Test func fitLetterboxesAndPillarboxes() {
        let wide = VideoGravity.fit.placement(pictureWidth: 320, pictureHeight: 240, aspect: 4.0 / 3, width: 640, height: 240)
        #expect(wide.source == PixelRect(x: 0, y: 0, width: 320, height: 240))
        #expect(wide.destination == PixelRect(x: 160, y: 0, width: 320, height: 240))
        let tall = VideoGravity.fit.placement(pictureWidth: 320, pictureHeight: 240, aspect: 4.0 / 3, width: 320, height: 480)
        #expect(tall.destination == PixelRect(x: 0, y: 120, width: 320, height: 240))
    }

    @Test func fillCutsTheEdgesThatDoNotFit() {
        // A 4:3 picture in a 8:3 window: the middle half of its rows.
        let wide = VideoGravity.fill.placement(pictureWidth: 320, pictureHeight: 240, aspect: 4.0 / 3, width: 640, height: 240)
        #expect(wide.source == PixelRect(x: 0, y: 60, width: 320, height: 120))
        #expect(wide.destination == PixelRect(x: 0, y: 0, width: 640, height: 240))
        // In a 2:3 window: the middle half of its columns.
        let tall = VideoGravity.fill.placement(pictureWidth: 320, pictureHeight: 240, aspect: 4.0 / 3, width: 320, height: 480)
        #expect(tall.source == PixelRect(x: 80, y: 0, width: 160, height: 240))
        // Anamorphic PAL (720×576 shown 16:9) in a 16:9 window: nothing is cut.
        let pal = VideoGravity.fill.placement(pictureWidth: 720, pictureHeight: 576, aspect: 16.0 / 9, width: 1024, height: 576)
        #expect(pal.source == PixelRect(x: 0, y: 0, width: 720, height: 576))
    }

    @Test func stretchTakesEverything() {
        let placed = VideoGravity.stretch.placement(pictureWidth: 320, pictureHeight: 240, aspect: 4.0 / 3, width: 100, height: 700)
        #expect(placed.source == PixelRect(x: 0, y: 0, width: 320, height: 240) && placed.destination == PixelRect(x: 0, y: 0, width: 100, height: 700))
        #expect(VideoGravity.fit.next == .fill && VideoGravity.fill.next == .stretch && VideoGravity.stretch.next == .fit)
    }

    @Test func geometryReadsMPVsForms() throws {
        let screen = (width: 1920, height: 1080), natural = (width: 1024, height: 576)
        let sized = try #require(WindowGeometry(parsing: "640x360"))
        #expect(sized.size(natural: natural, screen: screen) == (640, 360) && sized.origin(size: (640, 360), screen: screen) == nil)
        let widthOnly = try #require(WindowGeometry(parsing: "512"))
        #expect(widthOnly.size(natural: natural, screen: screen) == (512, 288))
        let heightOnly = try #require(WindowGeometry(parsing: "x288"))
        #expect(heightOnly.size(natural: natural, screen: screen) == (512, 288))
        let percent = try #require(WindowGeometry(parsing: "50%"))
        #expect(percent.size(natural: natural, screen: screen) == (960, 540))
        let placed = try #require(WindowGeometry(parsing: "640x360+10+20"))
        #expect(placed.origin(size: (640, 360), screen: screen)! == (10, 20))
        let fromCorner = try #require(WindowGeometry(parsing: "640x360-10-20"))
        #expect(fromCorner.origin(size: (640, 360), screen: screen)! == (1920 - 640 - 10, 1080 - 360 - 20))
        let positionOnly = try #require(WindowGeometry(parsing: "+0+0"))
        #expect(positionOnly.size(natural: natural, screen: screen) == (1024, 576) && positionOnly.origin(size: natural, screen: screen)! == (0, 0))
    }

    @Test(arguments: ["", "x", "abc", "640x", "0x10", "640x360+10", "640x360+10+20+30", "99999x10", "150%", "640y360", "+", "10x10 "])
    func malformedGeometryIsRefused(_ text: String) {
        #expect(WindowGeometry(parsing: text) == nil)
    }
}
