/// Whether a `Player` treats its input as live (mpv's low-latency profile, ffplay's
/// `-fflags nobuffer -flags low_delay`, and a catch-up that keeps latency on target).
public enum LiveMode: String, Sendable, CaseIterable {
    /// Live when the input looks live (``LiveInputs``): a live protocol, or a network
    /// input without a duration (HLS without ENDLIST).
    case auto
    /// Always live: opened with a small probe, and latency kept on target.
    case on
    /// Never: played as a file is, whatever it is.
    case off
}

/// How far behind the newest media a live input is played, and how the player gets back
/// there (as hls.js's live sync: a target, a faster rate to catch up, a jump beyond a bound).
public struct LiveLatency: Sendable, Hashable {
    /// Seconds of media kept between the newest received and the one heard or shown.
    public var target: Double
    /// Catching up starts when the latency stays above `target + slack` for a second.
    public var slack: Double
    /// The rate while catching up; audio keeps its pitch.
    public var catchUpRate: Double
    /// Above this latency (seconds, for a second), or at the first play above
    /// `target + slack`, playback jumps to `target` behind the newest media at once: from
    /// the newest keyframe queued before that point, skipping what precedes it.
    public var jumpAbove: Double

    /// A target of 0.3 s (a network's jitter and a sound card's buffer), catching up at
    /// 1.1× above 0.4 s, jumping above 8 s.
    public init(target: Double = 0.3, slack: Double = 0.1, catchUpRate: Double = 1.1, jumpAbove: Double = 8) {
        self.target = target
        self.slack = slack
        self.catchUpRate = catchUpRate
        self.jumpAbove = jumpAbove
    }
}

/// What a live player did to keep its latency on target.
public enum LiveAdjustment: Sendable, Equatable {
    /// The latency stayed above target plus slack: playing at `rate` until it is back.
    case catchingUp(latency: Double, rate: Double)
    /// Caught up: playing at the normal rate again.
    case onTarget(latency: Double)
    /// Jumped ahead: `latency` seconds behind before, the target after.
    case jumped(latency: Double)
}
