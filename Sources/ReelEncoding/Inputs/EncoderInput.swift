import ReelCore

/// Where the frames of an encode come from: a file of raw pictures, a y4m file, any file
/// Reel decodes, or the synthetic camera.
public protocol EncoderInput: AnyObject {
    /// Picture width in pixels.
    var width: Int { get }
    /// Picture height in pixels.
    var height: Int { get }
    /// Pictures per second.
    var frameRate: Rational { get }
    /// Frames in the whole input when known (for a progress bar).
    var frameCount: Int? { get }
    /// Whether frames arrive in real time (a camera) rather than as fast as they are read.
    var isLive: Bool { get }
    /// The next frame and when it is shown; nil at the end.
    func nextFrame() throws -> (frame: VideoFrame, presentationTime: MediaTime)?
    /// A live input's clock: the time on `CLOCK_MONOTONIC`, in seconds, at which its media
    /// time zero was captured, once the first frame is out; nil when unknown.
    var captureOrigin: Double? { get }
}

extension EncoderInput {
    public var captureOrigin: Double? { nil }
}
