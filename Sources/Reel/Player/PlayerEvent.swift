import ReelCore

/// What a ``Player`` tells its listeners.
public enum PlayerEvent: Sendable {
    case stateChanged(PlayerState)
    /// The playback position, at most every `timeUpdateInterval`.
    case time(position: Double)
    /// The first frame after opening was shown, `latency` seconds after `open` began.
    case firstFrame(latency: Double)
    case seekCompleted(position: Double)
    case endOfStream
    case error(PlayerError)
}

/// A failure while playing, as one line a user understands.
public struct PlayerError: Error, Sendable, CustomStringConvertible {
    public var description: String
    /// The typed error underneath (`InputError`, `DecodeError`…).
    public var underlying: any Error & Sendable

    public init(_ underlying: any Error & Sendable) {
        self.underlying = underlying
        self.description = "\(underlying)"
    }
}

/// Counters of a playback, for `--stats` and tests.
public struct PlaybackStatistics: Sendable, Codable {
    public var position: Double = 0
    public var framesShown = 0
    public var framesDropped = 0
    /// Video clock minus audio clock at the last presented frame, seconds.
    public var avOffset: Double?
    public var videoPacketsQueued = 0
    public var videoFramesQueued = 0
    public var audioPacketsQueued = 0
    public var audioFramesQueued = 0
    public var audioUnderruns = 0
    /// AVFrames allocated by the decoders' pools since opening.
    public var framesAllocated = 0
    public var firstFrameLatency: Double?
    /// The longest wall-clock time between two presented frames while playing (pauses,
    /// seeks and buffering excluded), seconds: a stall shows here.
    public var longestFrameInterval: Double?

    public init() {}
}
