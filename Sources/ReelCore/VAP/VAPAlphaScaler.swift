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
    /// Vertically blended source row, with one clamped sample before and after.
    private var blended: [Int16]

    init(source: PixelRect, outputWidth: Int, outputHeight: Int) {
        self.source = source
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        isHalfSize = source.width * 2 == outputWidth && source.height * 2 == outputHeight
        columns = isHalfSize ? [] : Self.positions(sourceCount: source.width, outputCount: outputWidth)
        rows = isHalfSize ? [] : Self.positions(sourceCount: source.height, outputCount: outputHeight)
        blended = [Int16](repeating: 0, count: source.width + 2)
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

    /// Fills `output` (`outputWidth` bytes) with the alpha of output row `row`.
    mutating func row(_ row: Int, luma: PixelPlane, limitedRange: Bool, into output: UnsafeMutablePointer<UInt8>) {
        if isHalfSize {
            // The common case: the range stretch inside the scaling loop.
            if limitedRange { halfSizeRow(row, luma: luma, into: output, Self.expanded) } else { halfSizeRow(row, luma: luma, into: output) { $0 } }
            return
        }
        if source.width == outputWidth && source.height == outputHeight {
            output.update(from: luma.row(source.y + row) + source.x, count: outputWidth)
        } else {
            generalRow(row, luma: luma, into: output)
        }
        if limitedRange {
            for index in 0..<outputWidth { output[index] = UInt8(truncatingIfNeeded: Self.expanded(Int16(truncatingIfNeeded: output[index]))) }
        }
    }

    /// (v − 16) · 255 / 219 for a level v, rounded and clamped, as (v − 16) · 149 / 128 in
    /// 16-bit unsigned lanes (149/128 ≈ 255/219 to 0.03 %).
    @inline(__always)
    private static func expanded(_ level: Int16) -> Int16 {
        let above = UInt16(truncatingIfNeeded: max(level &- 16, 0))
        return Int16(truncatingIfNeeded: min((above &* 149 &+ 64) &>> 7, 255))
    }

    /// Output row r sits at source row r/2 − ¼: ¾ of the nearer row, ¼ of the other; and
    /// output column 2k mixes source column k (¾) with k − 1, column 2k + 1 with k + 1.
    /// Plain loops, which the compiler vectorises.
    @inline(__always)
    private mutating func halfSizeRow(_ row: Int, luma: PixelPlane, into output: UnsafeMutablePointer<UInt8>, _ stretch: (Int16) -> Int16) {
        let near = row / 2, far = min(max(row % 2 == 0 ? near - 1 : near + 1, 0), source.height - 1)
        let nearRow = UnsafePointer(luma.row(source.y + near) + source.x), farRow = UnsafePointer(luma.row(source.y + far) + source.x)
        let width = source.width
        blended.withUnsafeMutableBufferPointer { buffer in
            let sums = buffer.baseAddress! + 1
            for column in 0..<width {
                sums[column] = Int16(truncatingIfNeeded: nearRow[column]) &* 3 &+ Int16(truncatingIfNeeded: farRow[column])
            }
            sums[-1] = sums[0]
            sums[width] = sums[width - 1]
            // Both pixels of a pair as one 16-bit store (little-endian: the even one first).
            let pairsOut = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt16.self)
            for pair in 0..<width {
                let centre = sums[pair] &* 3 &+ 8
                let even = UInt16(bitPattern: stretch((centre &+ sums[pair &- 1]) &>> 4))
                let odd = UInt16(bitPattern: stretch((centre &+ sums[pair &+ 1]) &>> 4))
                pairsOut[pair] = even | (odd &<< 8)
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
