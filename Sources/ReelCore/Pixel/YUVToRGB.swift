/// 8-bit 4:2:0 (planar or interleaved chroma) to BGRA or RGBA. Each chroma sample
/// colours its 2×2 block (libswscale's `SWS_POINT`), with libswscale's arithmetic
/// (`yuv2rgb_full_1_c`): the same bytes as libswscale with
/// `SWS_POINT | SWS_BITEXACT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT`.
enum YUVToRGB {
    /// Chroma of a 4:2:0 picture: where U and V start and how far apart their samples are.
    struct Chroma {
        var u: PixelPlane
        var uOffset: Int
        var v: PixelPlane
        var vOffset: Int
        /// 1 for planar chroma, 2 for interleaved.
        var step: Int
    }

    static func convert(luma: PixelPlane, chroma: Chroma, origin: (x: Int, y: Int), width: Int, height: Int,
                        into output: PixelPlane, order: PixelBufferFormat, coefficients: YUVToRGBCoefficients) {
        if order == .bgra {
            convert(BGRAOrder.self, luma: luma, chroma: chroma, origin: origin, width: width, height: height, into: output, coefficients)
        } else {
            convert(RGBAOrder.self, luma: luma, chroma: chroma, origin: origin, width: width, height: height, into: output, coefficients)
        }
    }

    private static func convert<Order: RGBByteOrder>(_: Order.Type, luma: PixelPlane, chroma: Chroma, origin: (x: Int, y: Int),
                                                     width: Int, height: Int, into output: PixelPlane,
                                                     _ coefficients: YUVToRGBCoefficients) {
        let chromaX = origin.x / 2
        for row in 0..<height {
            let sourceRow = origin.y + row, chromaRow = sourceRow / 2
            let u = UnsafePointer(chroma.u.row(chromaRow) + chroma.uOffset + chromaX * chroma.step)
            let v = UnsafePointer(chroma.v.row(chromaRow) + chroma.vOffset + chromaX * chroma.step)
            let y = UnsafePointer(luma.row(sourceRow) + origin.x)
            if chroma.step == 1 {
                convertRow(Order.self, y: y, u: u, v: v, chromaStep: 1, out: output.row(row), width: width, coefficients)
            } else {
                convertRow(Order.self, y: y, u: u, v: v, chromaStep: 2, out: output.row(row), width: width, coefficients)
            }
        }
    }

    @inline(__always)
    private static func convertRow<Order: RGBByteOrder>(_: Order.Type, y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>,
                                                        v: UnsafePointer<UInt8>, chromaStep: Int,
                                                        out: UnsafeMutablePointer<UInt8>, width: Int,
                                                        _ c: YUVToRGBCoefficients) {
        let pairs = width / 2
        for pair in 0..<pairs {
            let chroma = ChromaTerms(u: u[pair &* chromaStep], v: v[pair &* chromaStep], c)
            store(Order.self, y[2 &* pair], chroma, c, out + (8 &* pair))
            store(Order.self, y[2 &* pair &+ 1], chroma, c, out + (8 &* pair &+ 4))
        }
        if width & 1 == 1 {
            let chroma = ChromaTerms(u: u[pairs &* chromaStep], v: v[pairs &* chromaStep], c)
            store(Order.self, y[width - 1], chroma, c, out + (4 &* (width - 1)))
        }
    }

    /// What one chroma pair adds to red, green and blue.
    private struct ChromaTerms {
        var red: Int32, green: Int32, blue: Int32

        @inline(__always)
        init(u: UInt8, v: UInt8, _ c: YUVToRGBCoefficients) {
            let u = (Int32(u) &- 128) &<< 9, v = (Int32(v) &- 128) &<< 9
            red = v &* c.vToR
            green = v &* c.vToG &+ u &* c.uToG
            blue = u &* c.uToB
        }
    }

    @inline(__always)
    private static func store<Order: RGBByteOrder>(_: Order.Type, _ luma: UInt8, _ chroma: ChromaTerms,
                                                   _ c: YUVToRGBCoefficients, _ out: UnsafeMutablePointer<UInt8>) {
        // Wrapping 32-bit arithmetic, as libswscale's (which makes a few out-of-range
        // BT.2020 inputs overflow there too).
        let y = ((Int32(luma) &<< 9) &- c.yOffset) &* c.yCoefficient &+ (1 << 21)
        out[Order.red] = channel(y &+ chroma.red)
        out[1] = channel(y &+ chroma.green)
        out[Order.blue] = channel(y &+ chroma.blue)
        out[3] = 255
    }

    @inline(__always)
    private static func channel(_ value: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value, 0), (1 << 30) - 1) &>> 22)
    }
}
