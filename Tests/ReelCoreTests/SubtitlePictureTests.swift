import Testing
@testable import ReelCore

@Suite struct SubtitlePictureTests {
    static func picture(_ start: Int64, _ end: Int64?, rects: [SubtitlePicture.Rect] = [box]) -> SubtitlePicture {
        SubtitlePicture(startMilliseconds: start, endMilliseconds: end, canvasWidth: 4, canvasHeight: 2, rects: rects)
    }

    /// 2×1 at (1, 0): index 1 opaque red, index 2 half-transparent blue.
    static let box = SubtitlePicture.Rect(x: 1, y: 0, width: 2, height: 1, indices: [1, 2], palette: [0, 0xFFFF_0000, 0x8000_00FF])

    @Test func aPictureShowsUntilItsEndOrTheNextAndAnEmptyOneClears() {
        var timeline = SubtitlePictureTimeline()
        timeline.add(Self.picture(3000, nil))
        timeline.add(Self.picture(1000, nil))
        timeline.add(Self.picture(2000, nil, rects: []))
        timeline.add(Self.picture(5000, 5500))
        #expect(timeline.showing(at: 999) == nil)
        #expect(timeline.showing(at: 1000)?.startMilliseconds == 1000)
        #expect(timeline.showing(at: 1999)?.startMilliseconds == 1000)
        #expect(timeline.showing(at: 2000) == nil, "an empty picture clears")
        #expect(timeline.showing(at: 4999)?.startMilliseconds == 3000, "until the next")
        #expect(timeline.showing(at: 5499)?.startMilliseconds == 5000)
        #expect(timeline.showing(at: 5500) == nil, "until its end")
        timeline.add(Self.picture(1000, nil, rects: []))
        #expect(timeline.pictures.count == 4, "read again after a seek: replaced, not added")
        #expect(timeline.showing(at: 1500) == nil)
    }

    @Test func picturesBlendWithStraightAlphaAsFFmpegsOverlay() {
        let storage = HeapStorage(byteCount: 4 * 3 * 2)
        let plane = PixelPlane(baseAddress: storage.bytes.baseAddress!, bytesPerRow: 12, rowByteCount: 12, rowCount: 2)
        for byte in 0..<24 { plane.baseAddress.storeBytes(of: UInt8(100), toByteOffset: byte, as: UInt8.self) }
        SubtitleCompositor.blend(Self.picture(0, nil), into: plane, width: 4, height: 2, layout: .rgb24)
        let bytes = Array(UnsafeBufferPointer(start: plane.row(0), count: 12))
        // FFmpeg: ((x + 128) × 257) >> 16 of pixel × (255 − a) + colour × a.
        let half = { (pixel: UInt32, color: UInt32) in UInt8(((pixel * 127 + color * 128 + 128) * 257) >> 16) }
        #expect(bytes == [100, 100, 100, 255, 0, 0, half(100, 0), half(100, 0), half(100, 255), 100, 100, 100])
        #expect(Array(UnsafeBufferPointer(start: plane.row(1), count: 12)) == [UInt8](repeating: 100, count: 12))
        _ = storage
    }

    @Test func aCanvasOfAnotherSizeIsStretchedOntoThePicture() {
        let storage = HeapStorage(byteCount: 8 * 3 * 4)
        let plane = PixelPlane(baseAddress: storage.bytes.baseAddress!, bytesPerRow: 24, rowByteCount: 24, rowCount: 4)
        // The 4×2 canvas on an 8×4 picture: the red pixel at (1, 0) covers (2–3, 0–1).
        SubtitleCompositor.blend(Self.picture(0, nil), into: plane, width: 8, height: 4, layout: .rgb24)
        let reds = (0..<4).map { row in (0..<8).map { plane.row(row)[$0 * 3] } }
        #expect(reds[0] == [0, 0, 255, 255, 0, 0, 0, 0])
        #expect(reds[1] == reds[0])
        #expect(reds[2] == [UInt8](repeating: 0, count: 8))
        _ = storage
    }
}
