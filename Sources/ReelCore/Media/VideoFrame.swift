/// One row-addressed plane of a picture.
public struct PlaneView: @unchecked Sendable {
    /// The first byte of the first row.
    public var baseAddress: UnsafeRawPointer
    /// Bytes from one row to the next; may exceed the row's width (padding).
    public var bytesPerRow: Int
    /// Meaningful bytes in each row.
    public var rowByteCount: Int
    public var rowCount: Int

    public init(baseAddress: UnsafeRawPointer, bytesPerRow: Int, rowByteCount: Int, rowCount: Int) {
        self.baseAddress = baseAddress
        self.bytesPerRow = bytesPerRow
        self.rowByteCount = rowByteCount
        self.rowCount = rowCount
    }

    /// The meaningful bytes of row `row`.
    public func row(_ row: Int) -> UnsafeRawBufferPointer {
        precondition(row >= 0 && row < rowCount, "row out of range")
        return UnsafeRawBufferPointer(start: baseAddress + row * bytesPerRow, count: rowByteCount)
    }
}

/// A decoded picture that points into the decoder's own buffers (no copy).
public struct VideoFrame: @unchecked Sendable {
    public var width: Int
    public var height: Int
    public var pixelFormat: PixelFormat
    public var planes: [PlaneView]
    public var color: ColorDescription
    public var sampleAspectRatio: Rational
    /// Presentation timestamp in ticks of ``timeBase`` (FFmpeg's best-effort timestamp).
    public var pts: Int64?
    public var duration: Int64
    public var timeBase: Rational
    public var isKeyframe: Bool
    public var owner: any StorageOwner

    public init(width: Int, height: Int, pixelFormat: PixelFormat, planes: [PlaneView], color: ColorDescription,
                sampleAspectRatio: Rational, pts: Int64?, duration: Int64, timeBase: Rational,
                isKeyframe: Bool, owner: any StorageOwner) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.planes = planes
        self.color = color
        self.sampleAspectRatio = sampleAspectRatio
        self.pts = pts
        self.duration = duration
        self.timeBase = timeBase
        self.isKeyframe = isKeyframe
        self.owner = owner
    }

    public var presentationTime: MediaTime? { pts.flatMap { MediaTime(ticks: $0, timeBase: timeBase) } }

    /// The bytes of the picture with every row packed tightly, plane after plane: the
    /// layout of FFmpeg's `rawvideo`, which `-f framemd5` hashes.
    public func forEachPackedRow(_ body: (UnsafeRawBufferPointer) -> Void) {
        for plane in planes {
            for row in 0..<plane.rowCount { body(plane.row(row)) }
        }
    }

    public var packedByteCount: Int { planes.reduce(0) { $0 + $1.rowByteCount * $1.rowCount } }
}
