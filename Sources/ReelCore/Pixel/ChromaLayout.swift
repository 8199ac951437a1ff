/// Moves 4:2:0 chroma between planar (I420: a U plane, a V plane) and interleaved
/// (NV12: U V U V…, NV21: V U V U…) layouts, row by row so that any stride works.
///
/// Copying the U plane and then the V plane into an NV12 buffer (the seed's bug) gives
/// wrong colours: the samples must alternate.
enum ChromaLayout {
    /// `u` and `v` rows (`count` samples each) into one interleaved row.
    @inline(__always)
    static func interleave(u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, count: Int) {
        // Two bytes as one 16-bit store lets the compiler vectorise the zip.
        let pairs = UnsafeMutableRawPointer(out)
        for index in 0..<count {
            let pair = UInt16(u[index]) | UInt16(v[index]) &<< 8
            pairs.storeBytes(of: pair.littleEndian, toByteOffset: index &* 2, as: UInt16.self)
        }
    }

    /// One interleaved row into `first` (even bytes) and `second` (odd bytes).
    @inline(__always)
    static func deinterleave(_ row: UnsafePointer<UInt8>, first: UnsafeMutablePointer<UInt8>, second: UnsafeMutablePointer<UInt8>, count: Int) {
        let pairs = UnsafeRawPointer(row)
        for index in 0..<count {
            let pair = UInt16(littleEndian: pairs.loadUnaligned(fromByteOffset: index &* 2, as: UInt16.self))
            first[index] = UInt8(truncatingIfNeeded: pair)
            second[index] = UInt8(truncatingIfNeeded: pair &>> 8)
        }
    }

    /// Copies `rows` rows of `byteCount` bytes between planes of any strides.
    static func copyRows(from source: PixelPlane, byteOffset: Int, rowOffset: Int, to destination: PixelPlane, byteCount: Int, rows: Int) {
        for row in 0..<rows {
            (destination.row(row)).update(from: source.row(rowOffset + row) + byteOffset, count: byteCount)
        }
    }
}
