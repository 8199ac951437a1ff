import Testing
import ReelCore

@Suite struct OverlayCompositionTests {
    @Test func partsLieOnTheChromaGridAndMergeWhereTheyOverlap() {
        func rect(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> PixelRect { PixelRect(x: x, y: y, width: width, height: height) }
        // Grown to even edges; at an odd picture edge, to the edge.
        #expect(OverlayComposition.parts(covering: [rect(3, 3, 4, 4)], width: 10, height: 9) == [.init(area: rect(2, 2, 6, 6), layers: [0])])
        #expect(OverlayComposition.parts(covering: [rect(7, 6, 10, 10)], width: 9, height: 9) == [.init(area: rect(6, 6, 3, 3), layers: [0])])
        // Outside the picture or empty: nothing.
        #expect(OverlayComposition.parts(covering: [rect(-5, -5, 4, 4), rect(2, 2, 0, 3), rect(20, 0, 2, 2)], width: 10, height: 10).isEmpty)
        // The third overlaps the first; their union then overlaps the second: one part, layers in drawing order.
        #expect(OverlayComposition.parts(covering: [rect(0, 0, 4, 4), rect(10, 10, 2, 2), rect(3, 3, 8, 8)], width: 20, height: 20)
            == [.init(area: rect(0, 0, 12, 12), layers: [0, 1, 2])])
        // Side by side on the grid: two parts (no chroma sample is shared).
        #expect(OverlayComposition.parts(covering: [rect(0, 0, 4, 4), rect(4, 0, 4, 4)], width: 20, height: 20).count == 2)
        // Side by side but sharing a 2×2 block (columns 2 and 3): merged.
        #expect(OverlayComposition.parts(covering: [rect(0, 0, 3, 4), rect(3, 0, 2, 2)], width: 20, height: 20)
            == [.init(area: rect(0, 0, 6, 4), layers: [0, 1])])
    }

    /// Drawing on the parts only gives, in every 2×2 block a gift touches, the bytes of the
    /// whole picture taken to BGRA, drawn on and taken back (the chain checked against
    /// libswscale elsewhere), and the source's own bytes outside the box around all gifts:
    /// random pictures of odd sizes, gifts overlapping, partly outside, on odd coordinates.
    /// Each byte is placed by ``pixel(ofByte:row:plane:format:)``, not by the code tested.
    @Test(arguments: [PixelBufferFormat.i420, .nv12, .nv21, .i420p10, .bgra, .rgba])
    func drawingOnThePartsIsTheWholePictureChain(format: PixelBufferFormat) throws {
        var random = SplitMix(seed: 49)
        let (width, height) = (61, 47)
        let source = try Self.randomPicture(format: format, width: width, height: height, random: &random)
        let layers = try [(-7, 5, 20, 14), (9, 11, 17, 9), (40, 30, 30, 30), (33, 1, 5, 3)].map { x, y, layerWidth, layerHeight in
            OverlayComposition.Layer(picture: try Self.randomGift(width: layerWidth, height: layerHeight, random: &random), x: x, y: y)
        }
        let drawn = try OverlayComposition.draw(layers, over: source)

        let whole = try source.converted(to: .bgra)
        for layer in layers { PremultipliedBlend.blend(layer.picture, onto: whole, x: layer.x, y: layer.y) }
        let chain = try whole.converted(to: format)
        // The 2×2 blocks each gift touches, and the box around them all.
        var touched = Set<[Int]>(), box = (left: Int.max, top: Int.max, right: 0, bottom: 0)
        for layer in layers {
            let left = max(layer.x, 0), right = min(layer.x + layer.picture.width, width)
            let top = max(layer.y, 0), bottom = min(layer.y + layer.picture.height, height)
            guard left < right, top < bottom else { continue }
            for y in top..<bottom { for x in left..<right { touched.insert([x / 2, y / 2]) } }
            box = (min(box.left, left / 2), min(box.top, top / 2), max(box.right, (right + 1) / 2), max(box.bottom, (bottom + 1) / 2))
        }
        var unlikeChain = 0, unlikeSource = 0, checked = 0
        for (index, plane) in drawn.planes.enumerated() {
            for row in 0..<plane.rowCount {
                for byte in 0..<plane.rowByteCount {
                    let pixel = Self.pixel(ofByte: byte, row: row, plane: index, format: format)
                    let block = [pixel.x / 2, pixel.y / 2]
                    let got = plane.row(row)[byte]
                    if touched.contains(block) {
                        checked += 1
                        if got != chain.planes[index].row(row)[byte] { unlikeChain += 1 }
                    } else if !(box.left..<box.right).contains(block[0]) || !(box.top..<box.bottom).contains(block[1]) {
                        if got != source.planes[index].row(row)[byte] { unlikeSource += 1 }
                    }
                }
            }
        }
        #expect(checked > 1000 && unlikeChain == 0, "\(unlikeChain) of \(checked) bytes under the gifts unlike the whole picture's chain")
        #expect(unlikeSource == 0, "\(unlikeSource) bytes away from the gifts changed")
    }

    /// A region of a picture is that part of it: what is written into it lands there and
    /// nowhere else, in every layout (an odd-sized region at the picture's odd edge too).
    @Test(arguments: [PixelBufferFormat.i420, .nv12, .nv21, .i420p10, .bgra])
    func aRegionIsThatPartOfThePicture(format: PixelBufferFormat) throws {
        let picture = try PixelBuffer(format: format, width: 9, height: 8)
        let area = format.isYUV ? PixelRect(x: 4, y: 2, width: 5, height: 6) : PixelRect(x: 3, y: 1, width: 5, height: 6)
        let region = try picture.region(area)
        for plane in region.planes {
            for row in 0..<plane.rowCount { plane.row(row).update(repeating: 0xFF, count: plane.rowByteCount) }
        }
        var wrong = 0
        for (index, plane) in picture.planes.enumerated() {
            for row in 0..<plane.rowCount {
                for byte in 0..<plane.rowByteCount {
                    let pixel = Self.pixel(ofByte: byte, row: row, plane: index, format: format)
                    let inside = (area.x..<area.x + area.width).contains(pixel.x) && (area.y..<area.y + area.height).contains(pixel.y)
                    if (plane.row(row)[byte] == 0xFF) != inside { wrong += 1 }
                }
            }
        }
        #expect(wrong == 0, "\(wrong) bytes written outside the region or left inside it")
        #expect(throws: PixelConversionError.self) { try picture.region(PixelRect(x: 6, y: 2, width: 4, height: 2)) }
        if format.isYUV { #expect(throws: PixelConversionError.self) { try picture.region(PixelRect(x: 1, y: 2, width: 2, height: 2)) } }
    }

    /// The top-left pixel of the picture that byte `byte` of row `row` of plane `plane` describes.
    static func pixel(ofByte byte: Int, row: Int, plane: Int, format: PixelBufferFormat) -> (x: Int, y: Int) {
        switch (format, plane) {
        case (.bgra, _), (.rgba, _): (byte / 4, row)
        case (_, 0): (byte / format.bytesPerSample, row)
        case (.nv12, _), (.nv21, _): (byte / 2 * 2, row * 2)
        default: (byte / format.bytesPerSample * 2, row * 2)
        }
    }

    static func randomPicture(format: PixelBufferFormat, width: Int, height: Int, random: inout SplitMix) throws -> PixelBuffer {
        let picture = try PixelBuffer(format: format, width: width, height: height)
        for plane in picture.planes {
            for row in 0..<plane.rowCount {
                if format == .i420p10 {
                    let words = UnsafeMutableRawPointer(plane.row(row)).assumingMemoryBound(to: UInt16.self)
                    for index in 0..<plane.rowByteCount / 2 { words[index] = UInt16(random.next() & 1023) }
                } else {
                    for index in 0..<plane.rowByteCount { plane.row(row)[index] = UInt8(random.next() & 255) }
                }
            }
        }
        return picture
    }

    /// Premultiplied RGBA: no colour above its alpha, a quarter of the pixels transparent.
    static func randomGift(width: Int, height: Int, random: inout SplitMix) throws -> PixelBuffer {
        let gift = try PixelBuffer(format: .rgba, width: width, height: height)
        for row in 0..<height {
            for column in 0..<width {
                let pixel = gift.planes[0].row(row) + 4 * column
                let alpha = random.next() % 4 == 0 ? 0 : random.next() % 256
                for channel in 0..<3 { pixel[channel] = UInt8(random.next() % (alpha + 1)) }
                pixel[3] = UInt8(alpha)
            }
        }
        return gift
    }

    static func bytes(of picture: PixelBuffer) -> [UInt8] {
        var bytes: [UInt8] = []
        picture.forEachPackedRow { bytes.append(contentsOf: $0) }
        return bytes
    }
}
