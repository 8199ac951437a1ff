/// What an ``EncoderSession`` has done so far.
public struct EncoderStatistics: Sendable, Equatable {
    /// Frames given to ``EncoderSession/encode(_:presentationTime:forceKeyframe:)-(VideoFrame,_,_)``.
    public var framesIn = 0
    /// Frames dropped by the session's `FrameDropPolicy` because the encoder fell behind.
    public var framesDropped = 0
    public var samplesOut = 0
    public var keyframesOut = 0
    public var bytesOut = 0
}
