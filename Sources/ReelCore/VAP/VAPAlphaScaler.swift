/// The alpha of one output row, from the alpha region's luma scaled bilinearly to the
/// colour region's size with centres aligned (libswscale's `SWS_BILINEAR` positions),
/// then stretched from limited range (16 transparent, 235 opaque) to 0–255 unless the
/// video is full range. VAP's usual half-size alpha takes a vectorised path (weights ¾
/// and ¼ both ways, one rounding at the end); other ratios take a general one.
struct VAPAlphaScaler {
    let source: PixelRect
    let outputWidth: Int
    let outputHeight: Int
    private let isHalfSize: Bool
    /// General path: for each output column, the left source column and the right one's
    /// weight in 1/256; likewise for rows.
    private let columns: [(index: Int32, weight: Int16)]
    private let rows: [(index: Int32, weight: Int16)]
    /// Vertically blended source row, with one clamped sample before and after (half-size
    /// path) and room for whole vectors.
    private var blended: [Int16]

    init(source: PixelRect, outputWidth: Int, outputHeight: Int) {
        self.source = source
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        isHalfSize = source.width * 2 == outputWidth && source.height * 2 == outputHeight
        columns = isHalfSize ? [] : Self.positions(sourceCount: source.width, outputCount: outputWidth)
        rows = isHalfSize ? [] : Self.positions(sourceCount: source.height, outputCount: outputHeight)
        blended = [Int16](repeating: 0, count: source.width + 2 + 16)
    }

    private static func positions(sourceCount: Int, outputCount: Int) -> [(index: Int32, weight: Int16)] {
        (0..<outputCount).map { output in
            let position = (Double(output) + 0.5) * Double(sourceCount) / Double(outputCount) - 0.5
            let clamped = min(max(position, 0), Double(sourceCount - 1))
            let index = min(Int(clamped), max(sourceCount - 2, 0))
            let weight = sourceCount == 1 ? 0 : Int16(((clamped - Double(index)) * 256).rounded())
            return (Int32(index), weight)
        }
    }

    /// Fills `output` (at least `outputWidth` + 16 bytes) with the alpha of output row `row`.
    mutating func row(_ row: Int, luma: PixelPlane, limitedRange: Bool, into output: UnsafeMutablePointer<UInt8>) {
        if source.width == outputWidth && source.height == outputHeight {
            output.update(from: luma.row(source.y + row) + source.x, count: outputWidth)
        } else if isHalfSize {
            halfSizeRow(row, luma: luma, into: output)
        } else {
            generalRow(row, luma: luma, into: output)
        }
        if limitedRange { Self.expandRange(output, count: outputWidth) }
    }

    /// (v − 16) · 255 / 219, rounded and clamped: ((v − 16)·128 + 55) · 596 / 65536 in
    /// 16-bit lanes (596/512 ≈ 255/219; 55 makes the truncation round).
    private static func expandRange(_ values: UnsafeMutablePointer<UInt8>, count: Int) {
        var index = 0
        while index + 16 <= count {
            let bytes = SIMD16<Int16>(truncatingIfNeeded: UnsafeRawPointer(values + index).loadUnaligned(as: SIMD16<UInt8>.self))
            let shifted = ((bytes &- 16) &<< 7) &+ 55
            let scaled = SIMD16<Int16>(truncatingIfNeeded: (SIMD16<Int32>(truncatingIfNeeded: shifted) &* 596) &>> 16)
            let clamped = pointwiseMin(pointwiseMax(scaled, .zero), SIMD16(repeating: 255))
            UnsafeMutableRawPointer(values + index).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: clamped), as: SIMD16<UInt8>.self)
            index += 16
        }
        while index < count {
            values[index] = UInt8(min(max((((Int(values[index]) - 16) * 128 + 55) * 596) >> 16, 0), 255))
            index += 1
        }
    }

    /// Output row r sits at source row r/2 − ¼: ¾ of the nearer row, ¼ of the other.
    private mutating func halfSizeRow(_ row: Int, luma: PixelPlane, into output: UnsafeMutablePointer<UInt8>) {
        let near = row / 2, far = min(max(row % 2 == 0 ? near - 1 : near + 1, 0), source.height - 1)
        let nearRow = UnsafePointer(luma.row(source.y + near) + source.x), farRow = UnsafePointer(luma.row(source.y + far) + source.x)
        let width = source.width
        blended.withUnsafeMutableBufferPointer { buffer in
            let sums = buffer.baseAddress! + 1
            var column = 0
            while column + 8 <= width {
                let a = SIMD8<Int16>(truncatingIfNeeded: UnsafeRawPointer(nearRow + column).loadUnaligned(as: SIMD8<UInt8>.self))
                let b = SIMD8<Int16>(truncatingIfNeeded: UnsafeRawPointer(farRow + column).loadUnaligned(as: SIMD8<UInt8>.self))
                UnsafeMutableRawPointer(sums + column).storeBytes(of: a &* 3 &+ b, as: SIMD8<Int16>.self)
                column += 8
            }
            while column < width {
                sums[column] = Int16(nearRow[column]) &* 3 &+ Int16(farRow[column])
                column += 1
            }
            sums[-1] = sums[0]
            sums[width] = sums[width - 1]
            // Output column 2k mixes source k (¾) with k − 1, column 2k + 1 with k + 1.
            var pair = 0
            while pair + 8 <= width {
                let centre = UnsafeRawPointer(sums + pair).loadUnaligned(as: SIMD8<Int16>.self) &* 3 &+ 8
                let even = (centre &+ UnsafeRawPointer(sums + pair - 1).loadUnaligned(as: SIMD8<Int16>.self)) &>> 4
                let odd = (centre &+ UnsafeRawPointer(sums + pair + 1).loadUnaligned(as: SIMD8<Int16>.self)) &>> 4
                let bytes = SIMD16<UInt8>(truncatingIfNeeded: SIMD16<Int16>(
                    even[0], odd[0], even[1], odd[1], even[2], odd[2], even[3], odd[3],
                    even[4], odd[4], even[5], odd[5], even[6], odd[6], even[7], odd[7]))
                UnsafeMutableRawPointer(output + 2 * pair).storeBytes(of: bytes, as: SIMD16<UInt8>.self)
                pair += 8
            }
            while pair < width {
                let centre = sums[pair] &* 3 &+ 8
                output[2 * pair] = UInt8(truncatingIfNeeded: (centre &+ sums[pair - 1]) >> 4)
                output[2 * pair + 1] = UInt8(truncatingIfNeeded: (centre &+ sums[pair + 1]) >> 4)
                pair += 1
            }
        }
    }

    private mutating func generalRow(_ row: Int, luma: PixelPlane, into output: UnsafeMutablePointer<UInt8>) {
        let (index, weight) = rows[row]
        let top = UnsafePointer(luma.row(source.y + Int(index)) + source.x)
        let bottom = UnsafePointer(luma.row(source.y + min(Int(index) + 1, source.height - 1)) + source.x)
        let columns = self.columns
        blended.withUnsafeMutableBufferPointer { buffer in
            let sums = buffer.baseAddress!
            for column in 0..<source.width {
                // In 1/256: top × (256 − w) + bottom × w.
                sums[column] = Int16(truncatingIfNeeded: (Int(top[column]) * Int(256 - weight) + Int(bottom[column]) * Int(weight)) >> 4)
            }
            sums[source.width] = sums[source.width - 1]
            for (column, position) in columns.enumerated() {
                let left = Int(sums[Int(position.index)]), right = Int(sums[Int(position.index) + 1])
                output[column] = UInt8(truncatingIfNeeded: min((left * Int(256 - position.weight) + right * Int(position.weight) + (1 << 11)) >> 12, 255))
            }
        }
    }
}
