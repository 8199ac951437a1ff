/// The settings of an encoder session (`EncoderSession` in `Reel`), after
/// VTCompressionSession's properties.
public struct EncoderProperties: Sendable, Equatable {
    /// The profile, as `kVTProfileLevel_H264_*`; the level is chosen by the encoder from
    /// the size, rate and bit rate unless ``level`` names one.
    public enum Profile: String, Sendable, CaseIterable {
        /// Constrained baseline: no B-frames, no CABAC; every decoder plays it.
        case baseline
        /// Main: B-frames and CABAC.
        case main
        /// High: 8×8 transforms too; the best compression of the three.
        case high
    }

    /// A cap on the data produced in a window of time (`kVTCompressionPropertyKey_DataRateLimits`:
    /// so many bytes per so many seconds).
    public struct DataRateLimit: Sendable, Equatable {
        /// Bytes allowed in each window.
        public var bytes: Int
        /// The window, in seconds.
        public var seconds: Double
        /// At most `bytes` in any `seconds`.
        public init(bytes: Int, seconds: Double) {
            self.bytes = bytes
            self.seconds = seconds
        }
        /// The limit as a bit rate.
        public var bitsPerSecond: Double { Double(bytes) * 8 / seconds }
    }

    /// Encode for live use: no look-ahead and no reordering, so each frame comes out as
    /// soon as it is encoded (x264/x265's `zerolatency`).
    public var realTime = false
    /// The profile; main by default.
    public var profile: Profile = .main
    /// `"3.1"`, `"4.1"`…; nil lets the encoder pick the lowest level that fits.
    public var level: String?
    /// Bits per second; nil encodes at constant quality (CRF 23).
    public var averageBitRate: Int?
    /// Caps on bytes per window of time, enforced as the encoder's VBV.
    public var dataRateLimits: [DataRateLimit] = []
    /// Most frames from one keyframe to the next (the GOP length).
    public var maxKeyFrameInterval = 250
    /// Keyframes exactly every ``maxKeyFrameInterval`` frames: no scene-cut keyframes.
    public var exactKeyFrameInterval = false
    /// The rate frames come at, which rate control plans for.
    public var expectedFrameRate: Rational = Rational(30, 1)
    /// B-frames (output order differs from input order); baseline and real-time never use them.
    public var allowFrameReordering = true
    /// The encoder's speed/quality trade-off (x264's and x265's presets).
    public var preset = "veryfast"
    /// Frames waiting for the encoder before ``dropPolicy`` applies.
    public var queueDepth = 8
    /// What goes when ``queueDepth`` frames are already waiting.
    public var dropPolicy: FrameDropPolicy = .dropOldest
    /// Encoder threads; 0 lets the library choose.
    public var threads = 0

    /// VideoToolbox-like defaults: main profile, constant quality, 250-frame GOPs, B-frames.
    public init() {}

    /// Whether output order can differ from input order with these settings.
    public var usesFrameReordering: Bool { allowFrameReordering && !realTime && profile != .baseline }

    /// The limits in force: the ones set, or, with an average bit rate and none set, twice
    /// the average over one second (the seed's VideoToolbox setting). libx264 changes its
    /// bit rate while encoding only under such a limit.
    public var effectiveDataRateLimits: [DataRateLimit] {
        if !dataRateLimits.isEmpty { return dataRateLimits }
        guard let averageBitRate else { return [] }
        return [DataRateLimit(bytes: averageBitRate * 2 / 8, seconds: 1)]
    }

    /// The tightest limit as libx264/libx265's VBV: the limit's rate, and a buffer of half
    /// its window's bits. A VBV of rate R and buffer V bounds a window of T seconds by
    /// R·T + V bits, so one window can in theory reach 1.5× the limit; measured on the
    /// moving camera (2 Mbit/s under twice that per second) the worst second stays under
    /// the limit. A tighter mapping (R·S + V ≤ limit) guarantees the bound but starves
    /// rate control: the average then falls 10–20 % short.
    public var rateLimit: (bitsPerSecond: Int, bufferBits: Int)? {
        guard let tightest = effectiveDataRateLimits.min(by: { $0.bitsPerSecond < $1.bitsPerSecond }) else { return nil }
        return (Int(tightest.bitsPerSecond), tightest.bytes * 8 / 2)
    }

    /// Checks the properties for a `codec` session of `width`×`height` 4:2:0 pictures.
    public func validate(codec: VideoCodec, width: Int, height: Int) throws {
        func invalid(_ detail: String) -> EncoderError { EncoderError(.invalidProperty, detail) }
        guard width > 0, height > 0 else { throw invalid("the size must be positive, got \(width)x\(height)") }
        guard width % 2 == 0, height % 2 == 0 else { throw invalid("4:2:0 needs an even width and height, got \(width)x\(height)") }
        guard width <= 8192, height <= 8192 else { throw invalid("\(width)x\(height) is beyond 8192x8192") }
        if let averageBitRate, averageBitRate <= 0 { throw invalid("the bit rate must be positive, got \(averageBitRate)") }
        if let averageBitRate, averageBitRate > 800_000_000 { throw invalid("the bit rate \(averageBitRate) is beyond 800 Mbit/s") }
        for limit in dataRateLimits where limit.bytes <= 0 || !(limit.seconds > 0) || !limit.seconds.isFinite {
            throw invalid("a data-rate limit needs positive bytes and seconds, got \(limit.bytes) bytes per \(limit.seconds) s")
        }
        if let averageBitRate, let rateLimit, Double(rateLimit.bitsPerSecond) < Double(averageBitRate) {
            throw invalid("the data-rate limit (\(rateLimit.bitsPerSecond) bit/s) is below the average bit rate (\(averageBitRate) bit/s)")
        }
        guard maxKeyFrameInterval >= 1 else { throw invalid("the keyframe interval must be at least 1, got \(maxKeyFrameInterval)") }
        guard expectedFrameRate.numerator > 0, expectedFrameRate.denominator > 0, (expectedFrameRate.doubleValue ?? 0) <= 1000 else {
            throw invalid("the frame rate must be positive and at most 1000, got \(expectedFrameRate)")
        }
        guard (1...1000).contains(queueDepth) else { throw invalid("the queue depth must be 1 to 1000, got \(queueDepth)") }
        guard (0...64).contains(threads) else { throw invalid("threads must be 0 to 64, got \(threads)") }
        if codec == .h265, profile != .main { throw invalid("H.265 is encoded in the main profile; \(profile.rawValue) is an H.264 profile") }
        if let level, Double(level) == nil { throw invalid("the level must be a number such as 4.1, got \(level)") }
    }
}

/// What a session does with a new frame when ``EncoderProperties/queueDepth`` frames are
/// already waiting: the producer is never blocked.
public enum FrameDropPolicy: String, Sendable, CaseIterable {
    /// Drop the oldest waiting frame: the output stays closest to live.
    case dropOldest
    /// Drop the new frame: the output keeps the frames already accepted.
    case dropNewest
}
