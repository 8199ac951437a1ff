import ReelCore

/// What a ``VAPPlayer`` reports, in order.
public enum VAPEvent: Sendable {
    /// The file is read: its configuration (`nil` without a `vapc` box), the layout used,
    /// the frame count and the rate it plays at.
    case configReady(config: VAPConfig?, layout: VAPLayout, frameCount: Int, framesPerSecond: Double)
    case started
    /// Frame `index` is on screen; `audioOffset` is how far the audio was from the frame's
    /// time when it was shown (seconds, > 0 when audio is ahead), `nil` without audio.
    case frameRendered(index: Int, loop: Int, audioOffset: Double?)
    case paused
    case resumed
    /// Every loop has played (or playback was stopped). Frames more than a frame late on
    /// the audio clock are dropped, and counted.
    case completed(framesShown: Int, framesDropped: Int, loops: Int)
    case failed(VAPPlaybackError)
}

/// Why a VAP animation could not be played.
public struct VAPPlaybackError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ error: any Error) {
        description = String(describing: error)
    }
}
