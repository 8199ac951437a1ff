extension PixelBuffer {
    /// Wraps a decoded frame's planes without copying; the buffer keeps the frame's
    /// memory alive. Fails for layouts Reel does not handle itself (convert those with
    /// libswscale first).
    public init(wrapping frame: VideoFrame) throws {
        guard let format = PixelBufferFormat(frame.pixelFormat) else { throw PixelConversionError.unsupportedFormat(frame.pixelFormat.rawValue) }
        let planes = frame.planes.map {
            PixelPlane(baseAddress: UnsafeMutableRawPointer(mutating: $0.baseAddress), bytesPerRow: $0.bytesPerRow,
                       rowByteCount: $0.rowByteCount, rowCount: $0.rowCount)
        }
        let range: ColorRange = frame.pixelFormat == .yuvj420p || frame.color.range == .full ? .full : .limited
        try self.init(format: format, width: frame.width, height: frame.height, planes: planes,
                      matrix: YUVMatrix(frame.color.matrix), range: range, owner: frame.owner)
    }

    /// The buffer seen as a frame (no copy), for code that takes frames: encoders,
    /// PNG writers, checksums.
    public func videoFrame(pts: Int64? = nil, duration: Int64 = 0, timeBase: Rational = Rational(1, 1),
                           isKeyframe: Bool = false) -> VideoFrame {
        let views = planes.map { PlaneView(baseAddress: $0.baseAddress, bytesPerRow: $0.bytesPerRow, rowByteCount: $0.rowByteCount, rowCount: $0.rowCount) }
        let colorMatrix: ColorMatrix = switch matrix {
        case .bt601: .smpte170m
        case .bt709: .bt709
        case .bt2020: .bt2020nc
        }
        return VideoFrame(width: width, height: height, pixelFormat: format.pixelFormat, planes: views,
                          color: ColorDescription(matrix: format.isYUV ? colorMatrix : .rgb, range: format.isYUV ? range : .full),
                          sampleAspectRatio: Rational(1, 1), pts: pts, duration: duration, timeBase: timeBase,
                          isKeyframe: isKeyframe, owner: owner)
    }
}
