/// One row of colour and alpha into RGBA/BGRA pixels, as a plain loop over chroma pairs
/// (two pixels each) that the compiler vectorises with interleaved loads and stores
/// (Swift's SIMD types call out of line for conversions and min/max, which costs more
/// than the arithmetic). Sums are in 1/16 of a level, in 16-bit lanes: each of
/// libswscale's coefficients (1/8192) becomes a whole and a 1/128 part, so that every
/// product is a 16-bit multiply that cannot overflow; within half a level of exact.
struct VAPColourKernel {
    /// A coefficient in 1/16 of a level per level: `whole + fraction / 128`.
    struct Term {
        var whole: Int16
        var fraction: Int16

        init(_ coefficient: Int16) {
            let scaled = (Int(coefficient) * 128 + 256) >> 9     // coefficient × 16 / 8192, in 1/128
            whole = Int16(scaled >> 7)
            fraction = Int16(scaled & 127)
        }

        /// `value × coefficient × 16` for |value| ≤ 255.
        @inline(__always)
        func callAsFunction(_ value: Int16) -> Int16 {
            value &* whole &+ ((value &* fraction) &>> 7)
        }
    }

    let lumaOffset: Int16
    let luma: Term, vToR: Term, vToG: Term, uToG: Term, uToB: Term

    init(matrix: YUVMatrix, range: ColorRange) {
        let c = YUVToRGBCoefficients(matrix: matrix, range: range)
        lumaOffset = c.lumaOffset
        luma = Term(c.yCoefficient)
        vToR = Term(c.vToR)
        vToG = Term(c.vToG)
        uToG = Term(c.uToG)
        uToB = Term(c.uToB)
    }

    /// `width` pixels of the row `y` (whose first pixel is column `firstColumn` of the
    /// picture, for chroma pairing), chroma rows `u` and `v` starting at column 0.
    func compose(y: UnsafePointer<UInt8>, firstColumn: Int, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>, chromaStep: Int,
                 alpha: UnsafePointer<UInt8>, out: UnsafeMutablePointer<UInt8>, width: Int, bgra: Bool) {
        // An odd first column: its pixel pairs with the previous column's chroma, alone.
        var done = 0
        if firstColumn & 1 == 1 {
            pixel(y: y, u: u[firstColumn / 2 * chromaStep], v: v[firstColumn / 2 * chromaStep], alpha: alpha, out: out, bgra: bgra)
            done = 1
        }
        let pairs = (width - done) / 2, chromaStart = (firstColumn + done) / 2
        let uRow = u + chromaStart * chromaStep, vRow = v + chromaStart * chromaStep
        let yRow = y + done, alphaRow = alpha + done, outRow = out + 4 * done
        switch (bgra, chromaStep) {
        case (false, 1): pairsLoop(RGBAOrder.self, step: 1, y: yRow, u: uRow, v: vRow, alpha: alphaRow, out: outRow, pairs: pairs)
        case (false, _): pairsLoop(RGBAOrder.self, step: 2, y: yRow, u: uRow, v: vRow, alpha: alphaRow, out: outRow, pairs: pairs)
        case (true, 1): pairsLoop(BGRAOrder.self, step: 1, y: yRow, u: uRow, v: vRow, alpha: alphaRow, out: outRow, pairs: pairs)
        case (true, _): pairsLoop(BGRAOrder.self, step: 2, y: yRow, u: uRow, v: vRow, alpha: alphaRow, out: outRow, pairs: pairs)
        }
        let last = done + 2 * pairs
        if last < width {
            let chroma = (firstColumn + last) / 2 * chromaStep
            pixel(y: y + last, u: u[chroma], v: v[chroma], alpha: alpha + last, out: out + 4 * last, bgra: bgra)
        }
    }

    @inline(__always)
    private func pairsLoop<Order: RGBByteOrder>(_: Order.Type, step: Int, y: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>,
                                               alpha: UnsafePointer<UInt8>, out: UnsafeMutablePointer<UInt8>, pairs: Int) {
        let (lumaOffset, luma, vToR, vToG, uToG, uToB) = (lumaOffset, luma, vToR, vToG, uToG, uToB)
        // Each pixel as two 16-bit halves (red|green, blue|alpha in memory order), so that
        // the widest value is 16 bits and the compiler fills whole registers.
        let halves = UnsafeMutableRawPointer(out).assumingMemoryBound(to: UInt16.self)
        for pair in 0..<pairs {
            let uu = Int16(truncatingIfNeeded: u[step &* pair]) &- 128, vv = Int16(truncatingIfNeeded: v[step &* pair]) &- 128
            let red = vToR(vv), green = vToG(vv) &+ uToG(uu), blue = uToB(uu)
            let first = luma(Int16(truncatingIfNeeded: y[2 &* pair]) &- lumaOffset) &+ 8
            let second = luma(Int16(truncatingIfNeeded: y[2 &* pair &+ 1]) &- lumaOffset) &+ 8
            let (firstLow, firstHigh) = Order.red == 0 ? (first &+ red, first &+ blue) : (first &+ blue, first &+ red)
            let (secondLow, secondHigh) = Order.red == 0 ? (second &+ red, second &+ blue) : (second &+ blue, second &+ red)
            halves[4 &* pair] = Self.level16(firstLow &>> 4) | (Self.level16((first &+ green) &>> 4) &<< 8)
            halves[4 &* pair &+ 1] = Self.level16(firstHigh &>> 4) | (UInt16(truncatingIfNeeded: alpha[2 &* pair]) &<< 8)
            halves[4 &* pair &+ 2] = Self.level16(secondLow &>> 4) | (Self.level16((second &+ green) &>> 4) &<< 8)
            halves[4 &* pair &+ 3] = Self.level16(secondHigh &>> 4) | (UInt16(truncatingIfNeeded: alpha[2 &* pair &+ 1]) &<< 8)
        }
    }

    @inline(__always)
    private static func level16(_ value: Int16) -> UInt16 {
        UInt16(bitPattern: min(max(value, 0), 255))
    }

    private func pixel(y: UnsafePointer<UInt8>, u: UInt8, v: UInt8, alpha: UnsafePointer<UInt8>, out: UnsafeMutablePointer<UInt8>, bgra: Bool) {
        let uu = Int16(truncatingIfNeeded: u) &- 128, vv = Int16(truncatingIfNeeded: v) &- 128
        let lumaTerm = luma(Int16(truncatingIfNeeded: y[0]) &- lumaOffset) &+ 8
        let red = UInt8(Self.level16((lumaTerm &+ vToR(vv)) &>> 4))
        let green = UInt8(Self.level16((lumaTerm &+ vToG(vv) &+ uToG(uu)) &>> 4))
        let blue = UInt8(Self.level16((lumaTerm &+ uToB(uu)) &>> 4))
        out[0] = bgra ? blue : red
        out[1] = green
        out[2] = bgra ? red : blue
        out[3] = alpha[0]
    }
}
