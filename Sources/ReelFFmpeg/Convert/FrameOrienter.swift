import ReelCore

/// Turns decoded frames upright as their stream's display matrix (or the user) asks, as
/// ffplay and FFmpeg's command line do with transpose, hflip and vflip filters: samples
/// moved, not interpolated, so every shown frame is bit-identical to FFmpeg's.
///
/// Layouts Reel moves itself (``PixelBufferFormat``: 4:2:0 in 8 and 10 bits, NV12, packed
/// RGB) turn as decoded; any other (4:2:2, 4:4:4) is first converted to I420 by
/// libswscale's exact path, which is what the window shows them as anyway.
///
/// Not `Sendable`: one thread at a time (the player's video decode thread).
public final class FrameOrienter {
    /// The turn applied to every frame.
    public let orientation: PictureOrientation
    private let pool = PixelBufferPool(capacity: 4)
    private let converter = SwscaleConverter()

    /// An orienter that turns every frame by `orientation`.
    public init(orientation: PictureOrientation) {
        self.orientation = orientation
    }

    /// `frame` as it is shown: turned, with its timing, colour description and keyframe
    /// flag; a turn by a quarter swaps the sample aspect ratio too.
    public func orient(_ frame: VideoFrame) throws -> VideoFrame {
        if orientation.isUpright { return frame }
        let wrapped = try? PixelBuffer(wrapping: frame)
        let picture = try wrapped ?? converter.i420Picture(of: frame)
        let turned = try picture.reoriented(orientation, pool: pool)
        var shown = turned.videoFrame(pts: frame.pts, duration: frame.duration, timeBase: frame.timeBase, isKeyframe: frame.isKeyframe)
        if wrapped != nil { shown.pixelFormat = frame.pixelFormat }
        shown.color = frame.color
        let aspect = frame.sampleAspectRatio
        shown.sampleAspectRatio = orientation.swapsDimensions && aspect.numerator != 0 ? Rational(aspect.denominator, aspect.numerator) : aspect
        return shown
    }
}
