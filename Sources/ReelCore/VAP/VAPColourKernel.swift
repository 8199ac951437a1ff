/// One row of colour and alpha into RGBA/BGRA pixels, written as plain loops over
/// 16-bit values: the compiler vectorises the pixel loop (Swift's SIMD types call out of
/// line for conversions and min/max, which cost more than the arithmetic); the loop over
/// chroma pairs stays scalar. Each term is the high half of a product of a value shifted
/// left by 7 with libswscale's coefficients in 1/8192, leaving sums in 1/16 of a level:
/// within half a level of the exact result.
struct VAPColourKernel {
    let coefficients: YUVToRGBCoefficients
    /// Per-pixel chroma terms: each chroma pair's, written twice.
    private var red: [Int16] = [], green: [Int16] = [], blue: [Int16] = []

    init(matrix: YUVMatrix, range: ColorRange) {
        coefficients = YUVToRGBCoefficients(matrix: matrix, range: range)
    }

    /// `(a · b) >> 16`.
    @inline(__always)
    private static func high(_ a: Int16, _ b: Int16) -> Int16 {
        Int16(truncatingIfNeeded: (Int32(a) &* Int32(b)) &>> 16)
    }

    /// `width` pixels of the row `y` (whose first pixel is column `firstColumn` of the
    /// picture, for chroma pairing), chroma rows `u` and `v` starting at column 0.
    mutating func compose(y: UnsafePointer<UInt8>, firstColumn: Int, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>, chromaStep: Int,
                          alpha: UnsafePointer<UInt8>, out: UnsafeMutablePointer<UInt8>, width: Int, bgra: Bool) {
        let firstPair = firstColumn / 2, pairs = (firstColumn + width + 1) / 2 - firstPair
        if red.count < 2 * pairs {
            red = [Int16](repeating: 0, count: 2 * pairs)
            green = red
            blue = red
        }
        let c = coefficients
        let (vToR, vToG, uToG, uToB) = (c.vToR, c.vToG, c.uToG, c.uToB)
        red.withUnsafeMutableBufferPointer { redTerms in
            green.withUnsafeMutableBufferPointer { greenTerms in
                blue.withUnsafeMutableBufferPointer { blueTerms in
                    let r = redTerms.baseAddress!, g = greenTerms.baseAddress!, b = blueTerms.baseAddress!
                    let uRow = u + firstPair * chromaStep, vRow = v + firstPair * chromaStep
                    if chromaStep == 1 {
                        for pair in 0..<pairs {
                            Self.chroma(uRow[pair], vRow[pair], vToR, vToG, uToG, uToB, r + 2 &* pair, g + 2 &* pair, b + 2 &* pair)
                        }
                    } else {
                        for pair in 0..<pairs {
                            Self.chroma(uRow[2 &* pair], vRow[2 &* pair], vToR, vToG, uToG, uToB, r + 2 &* pair, g + 2 &* pair, b + 2 &* pair)
                        }
                    }
                    let lumaOffset = c.lumaOffset, lumaScale = c.yCoefficient
                    if bgra {
                        Self.pixels(BGRAOrder.self, y: y, shift: firstColumn & 1, r: r, g: g, b: b, alpha: alpha, out: out, width: width,
                                    lumaOffset: lumaOffset, lumaScale: lumaScale)
                    } else {
                        Self.pixels(RGBAOrder.self, y: y, shift: firstColumn & 1, r: r, g: g, b: b, alpha: alpha, out: out, width: width,
                                    lumaOffset: lumaOffset, lumaScale: lumaScale)
                    }
                }
            }
        }
    }

    /// The pixel loop, one copy per byte order so that the shifts are constants.
    @inline(__always)
    private static func pixels<Order: RGBByteOrder>(_: Order.Type, y: UnsafePointer<UInt8>, shift: Int, r: UnsafePointer<Int16>,
                                                    g: UnsafePointer<Int16>, b: UnsafePointer<Int16>, alpha: UnsafePointer<UInt8>,
                                                    out: UnsafeMutablePointer<UInt8>, width: Int, lumaOffset: Int16, lumaScale: Int16) {
        let r = r + shift, g = g + shift, b = b + shift
        for column in 0..<width {
            let luma = high((Int16(truncatingIfNeeded: y[column]) &- lumaOffset) &<< 7, lumaScale) &+ 8
            let pixel = out + 4 &* column
            pixel[Order.red] = level8((luma &+ r[column]) &>> 4)
            pixel[1] = level8((luma &+ g[column]) &>> 4)
            pixel[Order.blue] = level8((luma &+ b[column]) &>> 4)
            pixel[3] = alpha[column]
        }
    }

    @inline(__always)
    private static func level8(_ value: Int16) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value, 0), 255))
    }

    /// One chroma pair's terms, written for both of its pixels.
    @inline(__always)
    private static func chroma(_ u: UInt8, _ v: UInt8, _ vToR: Int16, _ vToG: Int16, _ uToG: Int16, _ uToB: Int16,
                               _ r: UnsafeMutablePointer<Int16>, _ g: UnsafeMutablePointer<Int16>, _ b: UnsafeMutablePointer<Int16>) {
        let uu = (Int16(truncatingIfNeeded: u) &- 128) &<< 7, vv = (Int16(truncatingIfNeeded: v) &- 128) &<< 7
        let red = high(vv, vToR), green = high(vv, vToG) &+ high(uu, uToG), blue = high(uu, uToB)
        r[0] = red; r[1] = red
        g[0] = green; g[1] = green
        b[0] = blue; b[1] = blue
    }
}
