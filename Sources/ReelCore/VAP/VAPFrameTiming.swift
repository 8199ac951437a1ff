/// How long each frame of an animation stays up, with VAP's catch-up: when a frame is
/// shown late (more time passed since the previous one than that one was due to last),
/// the lateness is taken off this frame's time, so that the animation keeps its length.
/// VAP's formula: `duration -= (now - lastRendered) - lastDuration`.
public struct VAPFrameTiming: Sendable {
    /// Seconds between frames at the nominal rate.
    public let frameInterval: Double
    private var lastRendered: Double?
    private var lastDuration = 0.0

    /// Timing for an animation at `framesPerSecond`.
    public init(framesPerSecond: Double) {
        frameInterval = 1 / framesPerSecond
    }

    /// The time the frame shown at `now` should stay up: the frame interval less how late
    /// it came; at least 0 and (when the previous frame came early) at most two intervals.
    public mutating func duration(ofFrameShownAt now: Double) -> Double {
        var duration = frameInterval
        if let lastRendered { duration -= (now - lastRendered) - lastDuration }
        duration = min(max(duration, 0), 2 * frameInterval)
        lastRendered = now
        lastDuration = duration
        return duration
    }

    /// Forgets the previous frame (after a pause or a seek).
    public mutating func restart() {
        lastRendered = nil
        lastDuration = 0
    }
}
