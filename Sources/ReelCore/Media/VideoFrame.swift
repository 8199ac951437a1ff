/// One row-addressed plane of a picture.
public struct PlaneView: @unchecked Sendable {
    /// The first byte of the first row.
    public var baseAddress: UnsafeRawPointer
    /// Bytes from one row to the next; may exceed the row's width (padding).
    public var bytesPerRow: Int
    /// Meaningful bytes in each row.
    public var rowByteCount: Int
    /// Rows in the plane (half the picture's height for 4:2:0 chroma).
    public var rowCount: Int

    /// A view of rows that some ``StorageOwner`` keeps alive.
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
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The layout of the planes (FFmpeg's pixel format).
    public var pixelFormat: PixelFormat
    /// The planes, in the pixel format's order (Y, U, V for YUV).
    public var planes: [PlaneView]
    /// How the numbers turn into colours.
    public var color: ColorDescription
    /// The shape of one pixel; `0/1` when unknown, treated as square.
    public var sampleAspectRatio: Rational
    /// Presentation timestamp in ticks of ``timeBase`` (FFmpeg's best-effort timestamp).
    public var pts: Int64?
    /// How long the frame is shown, in ticks of ``timeBase``; 0 when unknown.
    public var duration: Int64
    /// The unit of ``pts`` and ``duration``, in seconds.
    public var timeBase: Rational
    /// Whether the frame was coded as a keyframe (decoding can start here).
    public var isKeyframe: Bool
    /// Keeps the planes' memory alive as long as the frame is.
    public var owner: any StorageOwner
    /// How the picture is turned to be shown upright (its stream's display matrix), for
    /// frames handed over as decoded; `.upright` for frames that are turned already.
    public var orientation: PictureOrientation = .upright
    /// The brightest light an HDR stream says it holds, in cd/m² (its content light level's
    /// MaxCLL, else its mastering display's peak), for frames whose decoder keeps it apart
    /// from the picture (GStreamer's caps); FFmpeg's frames carry it as side data.
    public var peakLuminance: Double?

    /// A frame over planes that `owner` keeps alive.
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

    /// ``pts`` as a time; `nil` when the frame has none.
    public var presentationTime: MediaTime? { pts.flatMap { MediaTime(ticks: $0, timeBase: timeBase) } }

    /// The bytes of the picture with every row packed tightly, plane after plane: the
    /// layout of FFmpeg's `rawvideo`, which `-f framemd5` hashes.
    public func forEachPackedRow(_ body: (UnsafeRawBufferPointer) -> Void) {
        for plane in planes {
            for row in 0..<plane.rowCount { body(plane.row(row)) }
        }
    }

    /// Bytes of the picture with rows packed tightly, as ``forEachPackedRow(_:)`` gives them.
    public var packedByteCount: Int { planes.reduce(0) { $0 + $1.rowByteCount * $1.rowCount } }
}
