import Testing
@testable import ReelCore

/// The compositor against the textbook formulas computed in double precision.
@Suite struct VAPCompositorTests {
    /// An I420 picture: colour region on the right (random), alpha region on the left
    /// (gray, random luma), at `alphaScale` of the colour region's size.
    static func picture(colourWidth: Int, colourHeight: Int, alphaDivisor: Int, seed: UInt64) throws -> (PixelBuffer, VAPLayout) {
        let alphaWidth = colourWidth / alphaDivisor, alphaHeight = colourHeight / alphaDivisor
        let width = alphaWidth + 4 + colourWidth + (colourWidth % 2), height = max(colourHeight, alphaHeight) + 2
        let picture = try PixelBuffer(format: .i420, width: width + width % 2, height: height + height % 2)
        var generator = SplitMix(seed: seed)
        for plane in picture.planes {
            for row in 0..<plane.rowCount { for column in 0..<plane.rowByteCount { plane.row(row)[column] = UInt8(16 + generator.next() % 220) } }
        }
        let layout = VAPLayout(rgbFrame: PixelRect(x: alphaWidth + 4, y: 2, width: colourWidth, height: colourHeight),
                               alphaFrame: PixelRect(x: 0, y: 0, width: alphaWidth, height: alphaHeight))
        return (picture, layout)
    }

    static func expectedColour(_ picture: PixelBuffer, x: Int, y: Int) -> [Double] {
        let luma = Double(picture.planes[0].row(y)[x]) - 16
        let u = Double(picture.planes[1].row(y / 2)[x / 2]) - 128, v = Double(picture.planes[2].row(y / 2)[x / 2]) - 128
        // BT.601 limited range.
        return [1.164384 * luma + 1.596027 * v, 1.164384 * luma - 0.391762 * u - 0.812968 * v, 1.164384 * luma + 2.017232 * u]
            .map { min(max($0, 0), 255) }
    }

    /// Bilinear with centres aligned and edges clamped, then limited → full range.
    static func expectedAlpha(_ picture: PixelBuffer, _ layout: VAPLayout, x: Int, y: Int) -> Double {
        let a = layout.alphaFrame, c = layout.rgbFrame
        func position(_ output: Int, _ count: Int, _ source: Int) -> (Int, Int, Double) {
            let exact = min(max((Double(output) + 0.5) * Double(source) / Double(count) - 0.5, 0), Double(source - 1))
            return (Int(exact), min(Int(exact) + 1, source - 1), exact - Double(Int(exact)))
        }
        let (x0, x1, fx) = position(x, c.width, a.width), (y0, y1, fy) = position(y, c.height, a.height)
        func luma(_ column: Int, _ row: Int) -> Double { Double(picture.planes[0].row(a.y + row)[a.x + column]) }
        let value = (luma(x0, y0) * (1 - fx) + luma(x1, y0) * fx) * (1 - fy) + (luma(x0, y1) * (1 - fx) + luma(x1, y1) * fx) * fy
        return min(max((value - 16) * 255 / 219, 0), 255)
    }

    @Test(arguments: [(64, 48, 2), (50, 34, 2), (37, 21, 1), (60, 40, 3)])
    func pixelsEqualTheFormulasWithinOneLevel(width: Int, height: Int, divisor: Int) throws {
        let (picture, layout) = try Self.picture(colourWidth: width, colourHeight: height, alphaDivisor: divisor, seed: UInt64(width * height))
        var compositor = VAPCompositor(layout: layout)
        let output = try compositor.composite(picture)
        var worstColour = 0.0, worstAlpha = 0.0
        for y in 0..<height {
            for x in 0..<width {
                let pixel = output.planes[0].row(y) + 4 * x
                let colour = Self.expectedColour(picture, x: layout.rgbFrame.x + x, y: layout.rgbFrame.y + y)
                for channel in 0..<3 { worstColour = max(worstColour, abs(Double(pixel[channel]) - colour[channel])) }
                worstAlpha = max(worstAlpha, abs(Double(pixel[3]) - Self.expectedAlpha(picture, layout, x: x, y: y)))
            }
        }
        #expect(worstColour <= 1.0, "colour off by \(worstColour)")
        // Two roundings (the scaled luma, then the range stretch): within 1.5.
        #expect(worstAlpha <= 1.5, "alpha off by \(worstAlpha)")
    }

    @Test func bgraOrderSwapsRedAndBlueOnly() throws {
        let (picture, layout) = try Self.picture(colourWidth: 40, colourHeight: 20, alphaDivisor: 2, seed: 7)
        var compositor = VAPCompositor(layout: layout)
        let rgba = try compositor.composite(picture)
        let bgra = try PixelBuffer(format: .bgra, width: 40, height: 20)
        try compositor.composite(picture, into: bgra)
        for y in 0..<20 {
            for x in 0..<40 {
                let a = rgba.planes[0].row(y) + 4 * x, b = bgra.planes[0].row(y) + 4 * x
                #expect(a[0] == b[2] && a[1] == b[1] && a[2] == b[0] && a[3] == b[3])
            }
        }
    }

    @Test func straightAlphaDividesColourByAlpha() throws {
        let (picture, layout) = try Self.picture(colourWidth: 32, colourHeight: 16, alphaDivisor: 2, seed: 3)
        var compositor = VAPCompositor(layout: layout)
        let premultiplied = try compositor.composite(picture)
        let straight = try compositor.composite(picture, alpha: .straight)
        for y in 0..<16 {
            for x in 0..<32 {
                let p = premultiplied.planes[0].row(y) + 4 * x, s = straight.planes[0].row(y) + 4 * x
                let alpha = Int(p[3])
                for channel in 0..<3 where alpha > 0 {
                    let expected = min((Int(p[channel]) * 255 + alpha / 2) / alpha, 255)
                    #expect(Int(s[channel]) == expected)
                }
            }
        }
    }

    @Test func regionsOutsideThePictureAreRejected() throws {
        let picture = try PixelBuffer(format: .i420, width: 64, height: 32)
        var compositor = VAPCompositor(layout: VAPLayout(rgbFrame: PixelRect(x: 40, y: 0, width: 32, height: 32), alphaFrame: PixelRect(x: 0, y: 0, width: 32, height: 32)))
        #expect(throws: PixelConversionError.self) { try compositor.composite(picture) }
    }

    @Test func theDetectorFindsTheGrayHalf() throws {
        for side in VAPLayout.AlphaSide.allCases {
            let picture = try PixelBuffer(format: .i420, width: 64, height: 48)
            let gray = VAPLayout(alpha: side, videoWidth: 64, videoHeight: 48).alphaFrame
            for plane in 1...2 {
                for row in 0..<24 {
                    for column in 0..<32 {
                        let inside = gray.fits(width: 64, height: 48) && column * 2 >= gray.x && column * 2 < gray.x + gray.width
                            && row * 2 >= gray.y && row * 2 < gray.y + gray.height
                        picture.planes[plane].row(row)[column] = inside ? 128 : UInt8(60 + (row * 7 + column * 3) % 120)
                    }
                }
            }
            var detector = VAPLayoutDetector()
            try detector.add(picture)
            #expect(detector.side == side)
        }
        var empty = VAPLayoutDetector()
        let allGray = try PixelBuffer(format: .i420, width: 64, height: 48)
        for plane in 1...2 { for row in 0..<24 { for column in 0..<32 { allGray.planes[plane].row(row)[column] = 128 } } }
        try empty.add(allGray)
        #expect(empty.side == nil)
    }
}

/// A small deterministic generator for test pictures.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49EB_133B_111B
        return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
    }
}
