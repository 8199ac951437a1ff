import Reel
import ReelCore

enum PixelTestSupport {
    /// A buffer whose strides exceed its rows by `padding` bytes (never a multiple of 16),
    /// filled with random bytes, padding included.
    static func randomBuffer(_ format: PixelBufferFormat, width: Int, height: Int, padding: Int = 13,
                             matrix: YUVMatrix = .bt601, range: ColorRange = .limited,
                             legalRange: Bool = false, using rng: inout SeededGenerator) throws -> PixelBuffer {
        var strides: [Int] = [], rows: [Int] = [], offsets: [Int] = [], total = 0
        for plane in 0..<format.planeCount {
            let size = format.planeSize(plane, width: width, height: height)
            let stride = size.samplesPerRow * format.bytesPerSample + padding
            strides.append(stride)
            rows.append(size.rows)
            offsets.append(total)
            total += stride * size.rows
        }
        let storage = HeapStorage(byteCount: total)
        for index in 0..<total { storage.bytes[index] = UInt8.random(in: 0...255, using: &rng) }
        if legalRange {
            // Luma 16–235 in plane 0, chroma 16–240 elsewhere.
            for plane in 0..<format.planeCount {
                let limit: UInt8 = plane == 0 ? 235 : 240
                for index in offsets[plane]..<(offsets[plane] + strides[plane] * rows[plane]) {
                    storage.bytes[index] = UInt8.random(in: 16...limit, using: &rng)
                }
            }
        }
        let base = storage.bytes.baseAddress!
        let planes = (0..<format.planeCount).map { plane in
            let size = format.planeSize(plane, width: width, height: height)
            return PixelPlane(baseAddress: base + offsets[plane], bytesPerRow: strides[plane],
                              rowByteCount: size.samplesPerRow * format.bytesPerSample, rowCount: size.rows)
        }
        return try PixelBuffer(format: format, width: width, height: height, planes: planes, matrix: matrix, range: range, owner: storage)
    }

    /// An empty buffer with odd strides.
    static func emptyBuffer(_ format: PixelBufferFormat, width: Int, height: Int, matrix: YUVMatrix = .bt601,
                            range: ColorRange = .limited) throws -> PixelBuffer {
        var rng = SeededGenerator(seed: 0)
        var buffer = try randomBuffer(format, width: width, height: height, padding: 7, using: &rng)
        buffer.matrix = matrix
        buffer.range = range
        return buffer
    }

    /// The largest difference between the meaningful bytes of two buffers, and how many
    /// bytes differ.
    static func difference(_ a: PixelBuffer, _ b: PixelBuffer) -> (maximum: Int, differing: Int, total: Int) {
        precondition(a.format == b.format && a.width == b.width && a.height == b.height)
        var maximum = 0, differing = 0, total = 0
        for (planeA, planeB) in zip(a.planes, b.planes) {
            for row in 0..<planeA.rowCount {
                let rowA = planeA.row(row), rowB = planeB.row(row)
                for index in 0..<planeA.rowByteCount {
                    let delta = abs(Int(rowA[index]) - Int(rowB[index]))
                    maximum = max(maximum, delta)
                    if delta != 0 { differing += 1 }
                }
                total += planeA.rowByteCount
            }
        }
        return (maximum, differing, total)
    }

    /// libswscale's conversion of `source` into a new buffer of `format` (same matrix and
    /// range by default).
    ///
    /// libswscale's SIMD wants rows aligned (it crashes on NV12 rows at odd addresses), so
    /// it works on aligned copies; Reel's conversions get the odd strides.
    ///
    /// For odd sizes libswscale resamples chroma by ⌈w/2⌉/w instead of 1/2 (its point
    /// filter drifts across the row), which is not what 4:2:0 means: there the reference
    /// is libswscale on the picture padded to even size by repeating its last column and
    /// row, cropped back. For even sizes, the plain conversion.
    static func swscale(_ source: PixelBuffer, to format: PixelBufferFormat, matrix: YUVMatrix? = nil,
                        range: ColorRange? = nil) throws -> PixelBuffer {
        let even = try paddedToEven(source)
        let output = try PixelBuffer(format: format, width: even.width, height: even.height,
                                     matrix: matrix ?? source.matrix, range: range ?? source.range)
        try SwscaleConverter().convert(even.videoFrame(), into: output, flags: .reelExact)
        return try view(of: output, rect: PixelRect(x: 0, y: 0, width: source.width, height: source.height))
    }

    /// An aligned copy of `buffer` grown to even sides by repeating its last luma (or RGB)
    /// column and row; 4:2:0 chroma already covers the extra pixels.
    static func paddedToEven(_ buffer: PixelBuffer) throws -> PixelBuffer {
        let width = (buffer.width + 1) / 2 * 2, height = (buffer.height + 1) / 2 * 2
        let padded = try PixelBuffer(format: buffer.format, width: width, height: height, matrix: buffer.matrix, range: buffer.range)
        let pixelBytes = buffer.format.isYUV ? buffer.format.bytesPerSample : 4
        for (index, plane) in padded.planes.enumerated() {
            let source = buffer.planes[index]
            let isLumaOrRGB = index == 0
            for row in 0..<plane.rowCount {
                let from = source.row(min(row, source.rowCount - 1)), to = plane.row(row)
                to.update(from: from, count: source.rowByteCount)
                if isLumaOrRGB && width != buffer.width {
                    for byte in 0..<pixelBytes { to[source.rowByteCount + byte] = from[source.rowByteCount - pixelBytes + byte] }
                }
            }
        }
        return padded
    }

    /// A view of `rect` of `buffer` (no copy), for handing crops to libswscale.
    static func view(of buffer: PixelBuffer, rect: PixelRect) throws -> PixelBuffer {
        let planes = buffer.planes.enumerated().map { index, plane in
            let scale = index == 0 || !buffer.format.isYUV ? 1 : 2
            let bytesPerPixel = buffer.format.isYUV ? ((buffer.format == .nv12 || buffer.format == .nv21) && index == 1 ? 2 : 1) * buffer.format.bytesPerSample : 4
            let size = buffer.format.planeSize(index, width: rect.width, height: rect.height)
            return PixelPlane(baseAddress: plane.baseAddress + (rect.y / scale) * plane.bytesPerRow + (rect.x / scale) * bytesPerPixel,
                              bytesPerRow: plane.bytesPerRow, rowByteCount: size.samplesPerRow * buffer.format.bytesPerSample, rowCount: size.rows)
        }
        return try PixelBuffer(format: buffer.format, width: rect.width, height: rect.height, planes: planes,
                               matrix: buffer.matrix, range: buffer.range, owner: buffer.owner)
    }
}
