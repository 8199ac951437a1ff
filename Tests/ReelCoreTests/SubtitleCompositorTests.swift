import Testing
@testable import ReelCore

/// The blend against FFmpeg's `ff_blend_mask` arithmetic, worked out by hand here.
@Suite struct SubtitleCompositorTests {
    /// A 4×2 picture of one colour in `layout`.
    static func picture(_ layout: SubtitleCompositor.Layout, red: UInt8, green: UInt8, blue: UInt8) -> (HeapStorage, PixelPlane) {
        let step = layout == .rgb24 ? 3 : 4
        let storage = HeapStorage(byteCount: 4 * step * 2)
        let plane = PixelPlane(baseAddress: storage.bytes.baseAddress!, bytesPerRow: 4 * step, rowByteCount: 4 * step, rowCount: 2)
        let offsets = layout == .bgra ? (2, 1, 0) : (0, 1, 2)
        for pixel in 0..<8 {
            let base = plane.row(pixel / 4) + (pixel % 4) * step
            base[offsets.0] = red
            base[offsets.1] = green
            base[offsets.2] = blue
            if step == 4 { base[3] = 77 }
        }
        return (storage, plane)
    }

    /// FFmpeg's formula for one component.
    static func mixed(_ pixel: UInt8, _ color: UInt8, coverage: UInt8, opacity: UInt8) -> UInt8 {
        let alpha = (0x10307 * UInt64(opacity) + 3) >> 8
        let weight = UInt64(coverage) * alpha
        return UInt8(((0x1010101 - weight) * UInt64(pixel) + weight * UInt64(color)) >> 24)
    }

    @Test func fullCoverageOfAnOpaqueColourGivesTheColourAndNoneLeavesThePixel() {
        let (storage, plane) = Self.picture(.rgb24, red: 10, green: 20, blue: 30)
        let mask = SubtitleMask(x: 0, y: 0, width: 2, height: 1, coverage: [255, 0], red: 200, green: 100, blue: 50, opacity: 255)
        SubtitleCompositor.blend([mask], into: plane, width: 4, height: 2, layout: .rgb24)
        #expect(Array(UnsafeBufferPointer(start: plane.row(0), count: 6)) == [200, 100, 50, 10, 20, 30])
        _ = storage
    }

    @Test func partialCoverageAndOpacityMixAsFFmpegDoes() {
        for layout in [SubtitleCompositor.Layout.rgb24, .bgra, .rgba] {
            let (storage, plane) = Self.picture(layout, red: 240, green: 16, blue: 128)
            let mask = SubtitleMask(x: 1, y: 1, width: 1, height: 1, coverage: [131], red: 3, green: 250, blue: 77, opacity: 190)
            SubtitleCompositor.blend([mask], into: plane, width: 4, height: 2, layout: layout)
            let step = layout == .rgb24 ? 3 : 4
            let pixel = plane.row(1) + step
            let (r, g, b) = layout == .bgra ? (pixel[2], pixel[1], pixel[0]) : (pixel[0], pixel[1], pixel[2])
            #expect(r == Self.mixed(240, 3, coverage: 131, opacity: 190))
            #expect(g == Self.mixed(16, 250, coverage: 131, opacity: 190))
            #expect(b == Self.mixed(128, 77, coverage: 131, opacity: 190))
            if step == 4 { #expect(pixel[3] == 77, "alpha is kept") }
            #expect(plane.row(0)[0] == (layout == .bgra ? 128 : 240), "the pixel outside the mask")
            _ = storage
        }
    }

    @Test func masksOutsideThePictureAreCutOff() {
        let (storage, plane) = Self.picture(.rgba, red: 0, green: 0, blue: 0)
        // 3×3 at (-1, -1): only its bottom-right 2×2 lands on the picture; one past the right edge.
        let corner = SubtitleMask(x: -1, y: -1, width: 3, height: 3, coverage: [UInt8](repeating: 255, count: 9), red: 255, green: 255, blue: 255, opacity: 255)
        let beyond = SubtitleMask(x: 4, y: 0, width: 2, height: 2, coverage: [255, 255, 255, 255], red: 255, green: 0, blue: 0, opacity: 255)
        let invisible = SubtitleMask(x: 2, y: 0, width: 1, height: 1, coverage: [255], red: 255, green: 0, blue: 0, opacity: 0)
        SubtitleCompositor.blend([corner, beyond, invisible], into: plane, width: 4, height: 2, layout: .rgba)
        let reds = (0..<2).flatMap { row in (0..<4).map { plane.row(row)[$0 * 4] } }
        #expect(reds == [255, 255, 0, 0, 255, 255, 0, 0])
        _ = storage
    }
}
