import Reel
import ReelCore
import Testing

/// The picture-in-picture seed filled an NV12 buffer from I420 by copying the U plane and
/// then the V plane into the chroma plane, and copied rows assuming the stride equals
/// the width. Both give wrong colours; Reel's interleaving does not.
@Suite struct SeedNV12BugTests {
    /// Left half red, right half blue, in BT.601 limited range, with rows padded.
    static func redAndBlue(width: Int = 64, height: Int = 32) throws -> PixelBuffer {
        let rgb = try PixelBuffer(format: .rgba, width: width, height: height)
        for row in 0..<height {
            let pixels = rgb.planes[0].row(row)
            for x in 0..<width {
                let red = x < width / 2
                pixels[4 * x] = red ? 220 : 20
                pixels[4 * x + 1] = 30
                pixels[4 * x + 2] = red ? 20 : 220
                pixels[4 * x + 3] = 255
            }
        }
        var rng = SeededGenerator(seed: 3)
        let i420 = try PixelTestSupport.randomBuffer(.i420, width: width, height: height, padding: 24, using: &rng)
        try rgb.convert(into: i420)
        return i420
    }

    /// The seed's `pixelBuffer(fromYUV:)`: U then V copied one after the other into the
    /// interleaved plane.
    static func seedConversion(_ i420: PixelBuffer) throws -> PixelBuffer {
        let nv12 = try PixelBuffer(format: .nv12, width: i420.width, height: i420.height)
        for row in 0..<i420.height { nv12.planes[0].row(row).update(from: i420.planes[0].row(row), count: i420.width) }
        let chromaRows = i420.planes[1].rowCount, chromaWidth = i420.planes[1].rowByteCount
        var uv: [UInt8] = []
        for row in 0..<chromaRows { uv += UnsafeBufferPointer(start: i420.planes[1].row(row), count: chromaWidth) }
        for row in 0..<chromaRows { uv += UnsafeBufferPointer(start: i420.planes[2].row(row), count: chromaWidth) }
        let stride = nv12.planes[1].rowByteCount
        for row in 0..<chromaRows { nv12.planes[1].row(row).update(from: Array(uv[(row * stride)..<((row + 1) * stride)]), count: stride) }
        return nv12
    }

    /// Mean absolute difference of two RGBA pictures made by libswscale.
    static func meanError(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        var total = 0
        for row in 0..<a.height {
            for index in 0..<a.planes[0].rowByteCount { total += abs(Int(a.planes[0].row(row)[index]) - Int(b.planes[0].row(row)[index])) }
        }
        return Double(total) / Double(a.width * a.height * 4)
    }

    @Test func planarCopyIntoNV12GivesWrongColoursAndOursDoesNot() throws {
        let i420 = try Self.redAndBlue()
        let reference = try PixelTestSupport.swscale(i420, to: .rgba)

        let seeds = try PixelTestSupport.swscale(Self.seedConversion(i420), to: .rgba)
        let ours = try PixelTestSupport.swscale(i420.converted(to: .nv12), to: .rgba)

        // The bug: the right half's blue turns into something else.
        #expect(Self.meanError(seeds, reference) > 20)
        #expect(PixelTestSupport.difference(ours, reference).maximum == 0)
        // A pixel on the right is blue in ours, not in the seed's.
        let oursPixel = ours.planes[0].row(20) + 4 * 48, seedPixel = seeds.planes[0].row(20) + 4 * 48
        #expect(oursPixel[2] > 180 && oursPixel[0] < 60)
        #expect(!(seedPixel[2] > 180 && seedPixel[0] < 60))
    }
}
