import ReelCore

extension SwscaleConverter {
    /// `frame` as an I420 picture: the decoder's own planes when it decoded I420 (no copy),
    /// otherwise converted with libswscale's exact path. The 360° renderers take I420.
    /// - Parameter keepingColour: convert to the frame's own matrix and range (for
    ///   display); otherwise to the default limited range (for an encoder that expects it).
    public func i420Picture(of frame: VideoFrame, keepingColour: Bool = true) throws -> PixelBuffer {
        if let wrapped = try? PixelBuffer(wrapping: frame), wrapped.format == .i420 { return wrapped }
        let picture = keepingColour
            ? try PixelBuffer(format: .i420, width: frame.width, height: frame.height, matrix: YUVMatrix(frame.color.matrix),
                              range: frame.color.range == .full ? .full : .limited)
            : try PixelBuffer(format: .i420, width: frame.width, height: frame.height)
        try convert(frame, into: picture, flags: .reelExact)
        return picture
    }
}
