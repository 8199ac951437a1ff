import ReelPixelKernels

/// 8-bit 4:2:0 (planar or interleaved chroma) to BGRA or RGBA. Each chroma sample
/// colours its 2×2 block (libswscale's `SWS_POINT`), with libswscale's coefficients and
/// rounding (`yuv2rgb_full_1_c`): the same bytes as libswscale with
/// `SWS_POINT | SWS_BITEXACT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT`.
///
/// libswscale computes `(512·S + 2²¹) >> 22` in 32 bits, where S is the weighted sum
/// `(Y−16)·cy + (V−128)·cv…`; that equals `(S + 4096) >> 13`, which needs only 16-bit
/// multiplies (and so vectorises well) and cannot overflow. libswscale's form does
/// overflow for a few out-of-range inputs (Y above 235 with extreme chroma), where it
/// outputs 0 instead of 255; Reel outputs 255.
///
/// The loop below is the portable one; ``PixelKernel`` picks a C kernel for this CPU's
/// vector instructions where there is one (the same bytes).
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
                        into output: PixelPlane, order: PixelBufferFormat, coefficients: YUVToRGBCoefficients,
                        kernel: PixelKernel = .preferred) {
        if kernel != .portable {
            var c = ReelYUVToRGBCoefficients(luma_offset: coefficients.lumaOffset, y_coefficient: coefficients.yCoefficient,
                                             v_to_r: coefficients.vToR, v_to_g: coefficients.vToG,
                                             u_to_g: coefficients.uToG, u_to_b: coefficients.uToB)
            let chromaOrigin = (x: origin.x / 2 * chroma.step, y: origin.y / 2)
            let status = reel_yuv420_to_rgb32(luma.row(origin.y) + origin.x, luma.bytesPerRow,
                                              chroma.u.row(chromaOrigin.y) + chroma.uOffset + chromaOrigin.x, chroma.u.bytesPerRow,
                                              chroma.v.row(chromaOrigin.y) + chroma.vOffset + chromaOrigin.x, chroma.v.bytesPerRow,
                                              Int32(chroma.step), output.row(0), output.bytesPerRow, Int32(width), Int32(height),
                                              order == .rgba ? 1 : 0, &c, 8, kernel.code)
            if status == 0 { return }
        }
        if order == .bgra {
            convert(BGRAOrder.self, luma: luma, chroma: chroma, origin: origin, width: width, height: height, into: output, coefficients)
        } else {
            convert(RGBAOrder.self, luma: luma, chroma: chroma, origin: origin, width: width, height: height, into: output, coefficients)
        }
    }

    /// 10-bit 4:2:0 (little-endian words, planar chroma) to BGRA or RGBA: as libswscale
    /// computes it with the same flags, the 8-bit sums with offset and chroma bias ×4,
    /// rounding 2¹⁴ and `>> 15` (its 32-bit sum overflows to 0 for a few out-of-range
    /// inputs, where Reel saturates).
    static func convert10(luma: PixelPlane, u: PixelPlane, v: PixelPlane, origin: (x: Int, y: Int), width: Int, height: Int,
                          into output: PixelPlane, order: PixelBufferFormat, coefficients c: YUVToRGBCoefficients,
                          kernel: PixelKernel = .preferred) {
        let chromaOrigin = (x: origin.x / 2, y: origin.y / 2)
        if kernel != .portable {
            var vectorCoefficients = ReelYUVToRGBCoefficients(luma_offset: c.lumaOffset, y_coefficient: c.yCoefficient, v_to_r: c.vToR,
                                                              v_to_g: c.vToG, u_to_g: c.uToG, u_to_b: c.uToB)
            let status = reel_yuv420_to_rgb32(luma.row(origin.y) + origin.x * 2, luma.bytesPerRow,
                                              u.row(chromaOrigin.y) + chromaOrigin.x * 2, u.bytesPerRow,
                                              v.row(chromaOrigin.y) + chromaOrigin.x * 2, v.bytesPerRow,
                                              1, output.row(0), output.bytesPerRow, Int32(width), Int32(height),
                                              order == .rgba ? 1 : 0, &vectorCoefficients, 10, kernel.code)
            if status == 0 { return }
        }
        let red = order == .rgba ? 0 : 2, offset = Int32(c.lumaOffset) * 4
        // Words read wherever they lie: a row's stride need not be even.
        func sample(_ row: UnsafeMutablePointer<UInt8>, _ index: Int) -> Int32 {
            Int32(UInt16(littleEndian: UnsafeRawPointer(row).loadUnaligned(fromByteOffset: 2 * index, as: UInt16.self)))
        }
        for row in 0..<height {
            let y = luma.row(origin.y + row), chromaRow = (origin.y + row) / 2
            let uRow = u.row(chromaRow), vRow = v.row(chromaRow)
            let out = output.row(row)
            for x in 0..<width {
                let chromaU = sample(uRow, chromaOrigin.x + x / 2) - 512, chromaV = sample(vRow, chromaOrigin.x + x / 2) - 512
                let sum = (sample(y, origin.x + x) - offset) * Int32(c.yCoefficient) + (1 << 14)
                out[4 * x + red] = level10(sum + chromaV * Int32(c.vToR))
                out[4 * x + 1] = level10(sum + chromaV * Int32(c.vToG) + chromaU * Int32(c.uToG))
                out[4 * x + 2 - red] = level10(sum + chromaU * Int32(c.uToB))
                out[4 * x + 3] = 255
            }
        }
    }

    @inline(__always)
    private static func level10(_ value: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value >> 15, 0), 255))
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
        // 16 pixels (8 chroma pairs) at a time in vectors, the rest one pair at a time.
        var pair = 0
        while pair + 8 <= pairs {
            let chromaOffset = pair &* chromaStep
            let uBlock: SIMD8<UInt8>, vBlock: SIMD8<UInt8>
            if chromaStep == 2 {
                // One load of 8 interleaved pairs, from whichever of U and V comes first.
                let block = UnsafeRawPointer(min(u, v) + chromaOffset).loadUnaligned(as: SIMD16<UInt8>.self)
                (uBlock, vBlock) = u < v ? (block.evenHalf, block.oddHalf) : (block.oddHalf, block.evenHalf)
            } else {
                uBlock = UnsafeRawPointer(u + chromaOffset).loadUnaligned(as: SIMD8<UInt8>.self)
                vBlock = UnsafeRawPointer(v + chromaOffset).loadUnaligned(as: SIMD8<UInt8>.self)
            }
            let lumaBlock = UnsafeRawPointer(y + 2 &* pair).loadUnaligned(as: SIMD16<UInt8>.self)
            let terms = ChromaVector(u: uBlock, v: vBlock, c)
            let even = pixels(Order.self, lumaBlock.evenHalf, terms, c)
            let odd = pixels(Order.self, lumaBlock.oddHalf, terms, c)
            let output = UnsafeMutableRawPointer(out + 8 &* pair)
            output.storeBytes(of: SIMD16<UInt32>(lowHalf: interleavedLow(even, odd), highHalf: interleavedHigh(even, odd)), as: SIMD16<UInt32>.self)
            pair &+= 8
        }
        while pair < pairs {
            let chroma = ChromaTerms(u: u[pair &* chromaStep], v: v[pair &* chromaStep], c)
            store(Order.self, y[2 &* pair], chroma, c, out + (8 &* pair))
            store(Order.self, y[2 &* pair &+ 1], chroma, c, out + (8 &* pair &+ 4))
            pair &+= 1
        }
        if width & 1 == 1 {
            let chroma = ChromaTerms(u: u[pairs &* chromaStep], v: v[pairs &* chromaStep], c)
            store(Order.self, y[width - 1], chroma, c, out + (4 &* (width - 1)))
        }
    }

    /// ``ChromaTerms`` for 8 chroma pairs, in single precision: every product and sum is
    /// an integer below 2²⁴, so the float arithmetic is exact (and SSE2 has no 32-bit
    /// integer multiply to vectorise with).
    private struct ChromaVector {
        var red: SIMD8<Float>, green: SIMD8<Float>, blue: SIMD8<Float>

        @inline(__always)
        init(u: SIMD8<UInt8>, v: SIMD8<UInt8>, _ c: YUVToRGBCoefficients) {
            let u = exactFloats(u) - 128, v = exactFloats(v) - 128
            red = v * Float(c.vToR)
            green = v * Float(c.vToG) + u * Float(c.uToG)
            blue = u * Float(c.uToB)
        }
    }

    /// 8 pixels packed as 32-bit words in memory order.
    @inline(__always)
    private static func pixels<Order: RGBByteOrder>(_: Order.Type, _ luma: SIMD8<UInt8>, _ chroma: ChromaVector,
                                                    _ c: YUVToRGBCoefficients) -> SIMD8<UInt32> {
        let y = (exactFloats(luma) - Float(c.lumaOffset)) * Float(c.yCoefficient) + 4096
        let red = channels(y + chroma.red), green = channels(y + chroma.green), blue = channels(y + chroma.blue)
        let first = Order.red == 0 ? red : blue, third = Order.red == 0 ? blue : red
        return first | (green &<< 8) | (third &<< 16) | SIMD8<UInt32>(repeating: 0xFF00_0000)
    }

    /// `clamp(value >> 13, 0, 255)`. Every value lies within ±2.6·10⁶ (checked for each
    /// matrix and range at their extremes), so 2²³ + 306·8192 + value is an integer in
    /// [2²³, 2²⁴) whose mantissa holds value + 306·8192 exactly: shifted and unbiased, it
    /// is the floor of value / 8192, clamped as integers (float comparisons do not
    /// vectorise in Swift).
    @inline(__always)
    private static func channels(_ value: SIMD8<Float>) -> SIMD8<UInt32> {
        let biased = SIMD8<Int32>(truncatingIfNeeded: exactIntegers(value, bias: 306 * 8192))
        let level = (biased &>> 13) &- 306
        return SIMD8<UInt32>(truncatingIfNeeded: level.clamped(lowerBound: .zero, upperBound: SIMD8(repeating: 255)))
    }

    @inline(__always)
    private static func interleavedLow(_ even: SIMD8<UInt32>, _ odd: SIMD8<UInt32>) -> SIMD8<UInt32> {
        SIMD8(even[0], odd[0], even[1], odd[1], even[2], odd[2], even[3], odd[3])
    }

    @inline(__always)
    private static func interleavedHigh(_ even: SIMD8<UInt32>, _ odd: SIMD8<UInt32>) -> SIMD8<UInt32> {
        SIMD8(even[4], odd[4], even[5], odd[5], even[6], odd[6], even[7], odd[7])
    }

    /// What one chroma pair adds to red, green and blue.
    private struct ChromaTerms {
        var red: Int32, green: Int32, blue: Int32

        @inline(__always)
        init(u: UInt8, v: UInt8, _ c: YUVToRGBCoefficients) {
            let u = Int32(u) &- 128, v = Int32(v) &- 128
            red = v &* Int32(c.vToR)
            green = v &* Int32(c.vToG) &+ u &* Int32(c.uToG)
            blue = u &* Int32(c.uToB)
        }
    }

    @inline(__always)
    private static func store<Order: RGBByteOrder>(_: Order.Type, _ luma: UInt8, _ chroma: ChromaTerms,
                                                   _ c: YUVToRGBCoefficients, _ out: UnsafeMutablePointer<UInt8>) {
        let y = (Int32(luma) &- Int32(c.lumaOffset)) &* Int32(c.yCoefficient) &+ 4096
        out[Order.red] = channel(y &+ chroma.red)
        out[1] = channel(y &+ chroma.green)
        out[Order.blue] = channel(y &+ chroma.blue)
        out[3] = 255
    }

    @inline(__always)
    private static func channel(_ value: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value &>> 13, 0), 255))
    }
}
