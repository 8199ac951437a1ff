/// Fixed-point YUV → RGB coefficients in 1/8192, derived as libswscale derives them
/// (`ff_yuv2rgb_c_init_tables`), so that Reel's conversions equal libswscale's bit-exact
/// output. Each fits in 16 bits, as libswscale's do.
struct YUVToRGBCoefficients: Sendable {
    /// What is subtracted from Y first: 16 in limited range, 0 in full.
    var lumaOffset: Int16
    var yCoefficient: Int16
    var vToR: Int16
    var vToG: Int16
    var uToG: Int16
    var uToB: Int16

    init(matrix: YUVMatrix, range: ColorRange) {
        // libswscale's table for the matrix: crv, cbu, cgu, cgv in 1/65536.
        let table = matrix.inverseTable
        var crv = table.0, cbu = table.1, cgu = -table.2, cgv = -table.3
        var cy: Int64 = 1 << 16, oy: Int64 = 0
        if range == .full {
            crv = crv * 224 / 255
            cbu = cbu * 224 / 255
            cgu = cgu * 224 / 255
            cgv = cgv * 224 / 255
        } else {
            cy = cy * 255 / 219
            oy = 16 << 16
        }
        yCoefficient = Self.roundToInt16(cy << 13)
        // libswscale's offset is in 1/512 (`oy << 9`): 16 × 512 or 0.
        lumaOffset = Int16(oy >> 16)
        vToR = Self.roundToInt16(crv << 13)
        vToG = Self.roundToInt16(cgv << 13)
        uToG = Self.roundToInt16(cgu << 13)
        uToB = Self.roundToInt16(cbu << 13)
    }

    private static func roundToInt16(_ value: Int64) -> Int16 {
        Int16(min(max((value + (1 << 15)) >> 16, -0x8000), 0x7FFF))
    }
}

/// Fixed-point RGB → YUV coefficients as libswscale derives them (`fill_rgb2yuv_table`),
/// in 1/32768, for limited-range output; full range is reached by libswscale's range
/// stretch afterwards.
struct RGBToYUVCoefficients: Sendable {
    var ry: Int32, gy: Int32, by: Int32
    var ru: Int32, gu: Int32, bu: Int32
    var rv: Int32, gv: Int32, bv: Int32

    static let shift = 15

    init(matrix: YUVMatrix) {
        if matrix == .bt601 {
            // libswscale keeps the historic rounded constants for its default matrix.
            let scale = Double(1 << Self.shift)
            func coefficient(_ value: Double, _ rangeScale: Double) -> Int32 { Int32(value * rangeScale / 255 * scale + 0.5) }
            ry = coefficient(0.299, 219); gy = coefficient(0.587, 219); by = coefficient(0.114, 219)
            ru = -coefficient(0.169, 224); gu = -coefficient(0.331, 224); bu = coefficient(0.500, 224)
            rv = coefficient(0.500, 224); gv = -coefficient(0.419, 224); bv = -coefficient(0.081, 224)
            return
        }
        let table = matrix.inverseTable
        let vr = table.0, ub = table.1, ug = -table.2, vg = -table.3
        let one: Int64 = 65536
        let cy = one * 255 / 219
        let w = Self.roundedDivide(one * one * ug, ub)
        let v = Self.roundedDivide(one * one * vg, vr)
        let z = one * one - w - v
        let cY = Self.roundedDivide(cy * z, one), cU = Self.roundedDivide(ub * z, one), cV = Self.roundedDivide(vr * z, one)
        let unit = Int64(1) << Self.shift
        ry = Int32(-Self.roundedDivide(unit * v, cY)); gy = Int32(Self.roundedDivide(unit * one * one, cY)); by = Int32(-Self.roundedDivide(unit * w, cY))
        ru = Int32(Self.roundedDivide(unit * v, cU)); gu = Int32(-Self.roundedDivide(unit * one * one, cU)); bu = Int32(Self.roundedDivide(unit * (z + w), cU))
        rv = Int32(Self.roundedDivide(unit * (v + z), cV)); gv = Int32(-Self.roundedDivide(unit * one * one, cV)); bv = Int32(Self.roundedDivide(unit * w, cV))
    }

    /// FFmpeg's `ROUNDED_DIV`: halves away from zero.
    private static func roundedDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? (a + (b >> 1)) / b : (a - (b >> 1)) / b
    }
}

extension YUVMatrix {
    /// libswscale's `ff_yuv2rgb_coeffs` row for the matrix.
    var inverseTable: (Int64, Int64, Int64, Int64) {
        switch self {
        case .bt601: (104597, 132201, 25675, 53279)
        case .bt709: (117489, 138438, 13975, 34925)
        case .bt2020: (110013, 140363, 12277, 42626)
        }
    }
}
