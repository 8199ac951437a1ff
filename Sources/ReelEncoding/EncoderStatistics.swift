/// What an ``EncoderSession`` has done so far.
public struct EncoderStatistics: Sendable, Equatable {
    /// Frames given to ``EncoderSession/encode(_:presentationTime:forceKeyframe:)-(VideoFrame,_,_)``.
    public var framesIn = 0
    /// Frames dropped by the session's `FrameDropPolicy` because the encoder fell behind.
    public var framesDropped = 0
    /// Encoded samples delivered.
    public var samplesOut = 0
    /// Keyframes among them.
    public var keyframesOut = 0
    /// Bytes of encoded video delivered.
    public var bytesOut = 0
}
