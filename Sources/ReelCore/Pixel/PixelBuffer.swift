/// One plane of a ``PixelBuffer``.
public struct PixelPlane: @unchecked Sendable {
    /// The first byte of the first row.
    public var baseAddress: UnsafeMutableRawPointer
    /// Bytes from one row to the next (the stride); at least ``rowByteCount``.
    public var bytesPerRow: Int
    /// Meaningful bytes in a row.
    public var rowByteCount: Int
    /// Rows in the plane (half the picture's height for 4:2:0 chroma).
    public var rowCount: Int

    /// A plane over memory that the buffer's ``PixelBuffer/owner`` keeps alive.
    public init(baseAddress: UnsafeMutableRawPointer, bytesPerRow: Int, rowByteCount: Int, rowCount: Int) {
        self.baseAddress = baseAddress
        self.bytesPerRow = bytesPerRow
        self.rowByteCount = rowByteCount
        self.rowCount = rowCount
    }

    /// The first byte of row `index`; unchecked, for inner loops.
    @inline(__always)
    public func row(_ index: Int) -> UnsafeMutablePointer<UInt8> {
        (baseAddress + index * bytesPerRow).assumingMemoryBound(to: UInt8.self)
    }
}

/// A picture in memory with its layout and colour meaning, the analog of CVPixelBuffer:
/// planes with strides, a YUV matrix and a range.
///
/// A buffer either owns its memory (``init(format:width:height:matrix:range:alignment:)``,
/// or a ``PixelBufferPool``) or wraps someone else's, such as a decoded frame's, without a
/// copy; ``owner`` keeps that memory alive. Wrapped memory is shared: write only into
/// buffers you made.
public struct PixelBuffer: @unchecked Sendable {
    /// The layout of the planes.
    public let format: PixelBufferFormat
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The planes, in the format's order (Y, U, V; or one for packed RGB).
    public let planes: [PixelPlane]
    /// For YUV: how the numbers become colours. For RGB buffers: what a conversion to YUV
    /// should produce.
    public var matrix: YUVMatrix
    /// Limited or full range, for YUV and for conversions to YUV.
    public var range: ColorRange
    /// Keeps the planes' memory alive as long as the buffer is.
    public let owner: any StorageOwner

    /// Largest side Reel allocates (16K), whatever a header claims.
    public static let maxDimension = 16_384

    /// Wraps planes that `owner` keeps alive.
    public init(format: PixelBufferFormat, width: Int, height: Int, planes: [PixelPlane],
                matrix: YUVMatrix = .bt601, range: ColorRange = .limited, owner: any StorageOwner) throws {
        guard width > 0, height > 0, width <= Self.maxDimension, height <= Self.maxDimension else {
            throw PixelConversionError.invalidSize(width: width, height: height)
        }
        guard planes.count == format.planeCount else { throw PixelConversionError.planeMismatch(format: format, detail: "\(planes.count) planes") }
        for (index, plane) in planes.enumerated() {
            let size = format.planeSize(index, width: width, height: height)
            guard plane.rowByteCount >= size.samplesPerRow * format.bytesPerSample, plane.rowCount >= size.rows,
                  plane.bytesPerRow >= plane.rowByteCount else {
                throw PixelConversionError.planeMismatch(format: format, detail: "plane \(index) is smaller than \(width)x\(height) needs")
            }
        }
        self.format = format
        self.width = width
        self.height = height
        self.planes = planes
        self.matrix = matrix
        self.range = range
        self.owner = owner
    }

    /// Allocates a zeroed buffer whose rows start on `alignment`-byte boundaries.
    public init(format: PixelBufferFormat, width: Int, height: Int, matrix: YUVMatrix = .bt601,
                range: ColorRange = .limited, alignment: Int = 64) throws {
        guard width > 0, height > 0, width <= Self.maxDimension, height <= Self.maxDimension else {
            throw PixelConversionError.invalidSize(width: width, height: height)
        }
        let layout = Self.layout(format: format, width: width, height: height, alignment: alignment)
        let storage = HeapStorage(byteCount: layout.byteCount, alignment: alignment)
        try self.init(format: format, width: width, height: height, storage: storage, layout: layout, matrix: matrix, range: range)
    }

    init(format: PixelBufferFormat, width: Int, height: Int, storage: HeapStorage,
         layout: (strides: [Int], offsets: [Int], byteCount: Int), matrix: YUVMatrix, range: ColorRange) throws {
        let base = storage.bytes.baseAddress!
        let planes = (0..<format.planeCount).map { index in
            let size = format.planeSize(index, width: width, height: height)
            return PixelPlane(baseAddress: base + layout.offsets[index], bytesPerRow: layout.strides[index],
                              rowByteCount: size.samplesPerRow * format.bytesPerSample, rowCount: size.rows)
        }
        try self.init(format: format, width: width, height: height, planes: planes, matrix: matrix, range: range, owner: storage)
    }

    /// Strides rounded up to `alignment`, planes one after another.
    static func layout(format: PixelBufferFormat, width: Int, height: Int, alignment: Int) -> (strides: [Int], offsets: [Int], byteCount: Int) {
        var strides: [Int] = [], offsets: [Int] = [], total = 0
        for index in 0..<format.planeCount {
            let size = format.planeSize(index, width: width, height: height)
            let stride = (size.samplesPerRow * format.bytesPerSample + alignment - 1) / alignment * alignment
            strides.append(stride)
            offsets.append(total)
            total += stride * size.rows
        }
        return (strides, offsets, total)
    }

    /// Calls `body` with every meaningful row, plane after plane, without padding: the
    /// layout of FFmpeg's `rawvideo` and of a y4m frame.
    public func forEachPackedRow(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        for plane in planes {
            for row in 0..<plane.rowCount {
                try body(UnsafeRawBufferPointer(start: plane.row(row), count: plane.rowByteCount))
            }
        }
    }

    /// Bytes of the picture with rows packed tightly, plane after plane.
    public var packedByteCount: Int { planes.reduce(0) { $0 + $1.rowByteCount * $1.rowCount } }
}
