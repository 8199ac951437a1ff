import ReelPixelKernels

/// BGRA or RGBA to 4:2:0 (8-bit, or 10-bit in words) with libswscale's arithmetic (`rgb32ToY`,
/// `rgb32ToUV_half`, the range stretch and the rounding of `yuv2plane1`): the same
/// bytes as libswscale with `SWS_POINT | SWS_BITEXACT | SWS_ACCURATE_RND |
/// SWS_FULL_CHR_H_INT`. Chroma averages each horizontal pair of pixels of the second
/// row of its 2×2 block, as libswscale's point filter picks that row.
///
/// The loops below are the portable ones; ``PixelKernel`` picks a C kernel for this CPU's
/// vector instructions where there is one (the same bytes).
enum RGBToYUV {
    struct Destination {
        var luma: PixelPlane
        var u: PixelPlane
        var uOffset: Int
        var v: PixelPlane
        var vOffset: Int
        /// 1 for planar chroma, 2 for interleaved.
        var step: Int
        /// 10-bit samples in little-endian words (libswscale's `yuv2plane1_10`: the same
        /// 15-bit levels as 8-bit, `(level + 16) >> 5`), planar chroma only; else bytes.
        var tenBit = false
    }

    static func convert(_ source: PixelPlane, order: PixelBufferFormat, origin: (x: Int, y: Int), width: Int, height: Int,
                        into destination: Destination, matrix: YUVMatrix, fullRange: Bool, kernel: PixelKernel = .preferred) {
        let coefficients = RGBToYUVCoefficients(matrix: matrix)
        if kernel != .portable, var vectorCoefficients = coefficients.asKernelCoefficients {
            let status = reel_rgb32_to_yuv420(source.row(origin.y) + origin.x * 4, source.bytesPerRow, order == .rgba ? 1 : 0,
                                              destination.luma.row(0), destination.luma.bytesPerRow,
                                              destination.u.row(0) + destination.uOffset, destination.u.bytesPerRow,
                                              destination.v.row(0) + destination.vOffset, destination.v.bytesPerRow,
                                              Int32(destination.step), Int32(width), Int32(height), &vectorCoefficients,
                                              fullRange ? 1 : 0, destination.tenBit ? 10 : 8, kernel.code)
            if status == 0 { return }
        }
        if order == .bgra {
            convert(BGRAOrder.self, source, origin: origin, width: width, height: height, into: destination, coefficients, fullRange)
        } else {
            convert(RGBAOrder.self, source, origin: origin, width: width, height: height, into: destination, coefficients, fullRange)
        }
    }

    private static func convert<Order: RGBByteOrder>(_: Order.Type, _ source: PixelPlane, origin: (x: Int, y: Int),
                                                     width: Int, height: Int, into destination: Destination,
                                                     _ c: RGBToYUVCoefficients, _ fullRange: Bool) {
        for row in 0..<height {
            let pixels = UnsafePointer(source.row(origin.y + row) + origin.x * 4)
            let luma = destination.luma.row(row)
            var x = 0
            if !fullRange && !destination.tenBit {
                // 8 pixels at a time: Σ coefficient × channel is below 2²³, exact in floats;
                // libswscale's ((256 Σ + 2²⁷ + 2¹⁶) >> 17, doubled, + 64) >> 7 is
                // ((Σ + 524544) >> 9 + 32) >> 6, which stays within 0…255.
                let ry = Float(c.ry), gy = Float(c.gy), by = Float(c.by)
                while x + 8 <= width {
                    let block = UnsafeRawPointer(pixels + (4 &* x)).loadUnaligned(as: SIMD32<UInt8>.self)
                    let even = block.evenHalf, green = block.oddHalf.evenHalf
                    let red = Order.red == 0 ? even.evenHalf : even.oddHalf, blue = Order.red == 0 ? even.oddHalf : even.evenHalf
                    let sum = exactFloats(red) * ry + exactFloats(green) * gy + exactFloats(blue) * by
                    let levels = ((exactIntegers(sum, bias: 524_544) &>> 9) &+ 32) &>> 6
                    for lane in 0..<8 { luma[x &+ lane] = UInt8(truncatingIfNeeded: levels[lane]) }
                    x &+= 8
                }
            }
            while x < width {
                let pixel = pixels + (4 &* x)
                let value = (UInt32(bitPattern: c.ry) &<< 8) &* UInt32(pixel[Order.red])
                    &+ (UInt32(bitPattern: c.gy) &<< 8) &* UInt32(pixel[1])
                    &+ (UInt32(bitPattern: c.by) &<< 8) &* UInt32(pixel[Order.blue]) &+ lumaRounding
                var y15 = min(Int32(truncatingIfNeeded: value &>> 17) &* 2, 32767)
                if fullRange { y15 = (min(y15, 30189) &* 19077 &- 39057361) &>> 14 }
                store(y15, at: x, in: luma, tenBit: destination.tenBit)
                x &+= 1
            }
        }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        for chromaRow in 0..<chromaHeight {
            let sourceRow = min(2 * chromaRow + 1, height - 1)
            let pixels = UnsafePointer(source.row(origin.y + sourceRow) + origin.x * 4)
            let u = destination.u.row(chromaRow) + destination.uOffset
            let v = destination.v.row(chromaRow) + destination.vOffset
            for x in 0..<chromaWidth {
                let left = pixels + (8 &* x), right = pixels + (4 &* min(2 &* x &+ 1, width - 1))
                let red = UInt32(left[Order.red]) &+ UInt32(right[Order.red])
                let green = UInt32(left[1]) &+ UInt32(right[1])
                let blue = UInt32(left[Order.blue]) &+ UInt32(right[Order.blue])
                var u15 = chroma(red, green, blue, c.ru, c.gu, c.bu)
                var v15 = chroma(red, green, blue, c.rv, c.gv, c.bv)
                if fullRange {
                    u15 = (min(u15, 30775) &* 4663 &- 9289992) &>> 12
                    v15 = (min(v15, 30775) &* 4663 &- 9289992) &>> 12
                }
                store(u15, at: x &* destination.step, in: u, tenBit: destination.tenBit)
                store(v15, at: x &* destination.step, in: v, tenBit: destination.tenBit)
            }
        }
    }

    private static let lumaRounding: UInt32 = (32 << 22) + (1 << 16)
    private static let chromaRounding: UInt32 = (256 << 23) &+ (1 << 17)

    /// A chroma sample of a pair of pixels in libswscale's 15-bit scale.
    @inline(__always)
    private static func chroma(_ red: UInt32, _ green: UInt32, _ blue: UInt32, _ r: Int32, _ g: Int32, _ b: Int32) -> Int32 {
        let sum = (UInt32(bitPattern: r) &<< 8) &* red &+ (UInt32(bitPattern: g) &<< 8) &* green
            &+ (UInt32(bitPattern: b) &<< 8) &* blue &+ chromaRounding
        return min(Int32(UInt16(truncatingIfNeeded: sum &>> 18)) &* 2, 32767)
    }

    /// A 15-bit level as a byte, `(level + 64) >> 7`, or as a 10-bit word, `(level + 16) >> 5`.
    @inline(__always)
    private static func store(_ level: Int32, at index: Int, in row: UnsafeMutablePointer<UInt8>, tenBit: Bool) {
        if tenBit {
            let word = UInt16(truncatingIfNeeded: min(max((level &+ 16) &>> 5, 0), 1023))
            UnsafeMutableRawPointer(row).storeBytes(of: word.littleEndian, toByteOffset: 2 &* index, as: UInt16.self)
        } else {
            row[index] = UInt8(truncatingIfNeeded: min(max((level &+ 64) &>> 7, 0), 255))
        }
    }
}

extension RGBToYUVCoefficients {
    /// The coefficients as the C kernels take them, when each fits in 16 bits (every
    /// matrix's do).
    fileprivate var asKernelCoefficients: ReelRGBToYUVCoefficients? {
        let values = [ry, gy, by, ru, gu, bu, rv, gv, bv].compactMap { Int16(exactly: $0) }
        guard values.count == 9 else { return nil }
        return ReelRGBToYUVCoefficients(r_to_y: values[0], g_to_y: values[1], b_to_y: values[2], r_to_u: values[3], g_to_u: values[4],
                                        b_to_u: values[5], r_to_v: values[6], g_to_v: values[7], b_to_v: values[8])
    }
}
