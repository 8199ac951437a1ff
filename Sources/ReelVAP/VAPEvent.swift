import ReelCore

/// What a ``VAPPlayer`` reports, in order.
public enum VAPEvent: Sendable {
    /// The file is read: its configuration (`nil` without a `vapc` box), the layout used,
    /// the frame count and the rate it plays at.
    case configReady(config: VAPConfig?, layout: VAPLayout, frameCount: Int, framesPerSecond: Double)
    /// The player's thread runs and the outputs are open.
    case started
    /// Frame `index` is on screen; `audioOffset` is how far the audio was from the frame's
    /// time when it was shown (seconds, > 0 when audio is ahead), `nil` without audio.
    case frameRendered(index: Int, loop: Int, audioOffset: Double?)
    /// Paused (by ``VAPPlayer/pause()`` or the window).
    case paused
    /// Playing again after a pause.
    case resumed
    /// Every loop has played (or playback was stopped). Frames more than a frame late on
    /// the audio clock are dropped, and counted.
    case completed(framesShown: Int, framesDropped: Int, loops: Int)
    /// Playback stopped on an error; the stream finishes after it.
    case failed(VAPPlayerError)
}

/// Why a VAP animation could not be played.
public struct VAPPlayerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in one line.
    public var description: String
    /// The typed error underneath (`VAPError`, `DecodeError`, `InputError`…).
    public var underlying: any Error

    /// Wraps `underlying`, described as it describes itself.
    public init(_ underlying: any Error) {
        self.underlying = underlying
        description = String(describing: underlying)
    }
}
