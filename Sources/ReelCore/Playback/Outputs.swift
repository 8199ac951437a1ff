/// The sample format every audio output plays: interleaved 32-bit float.
public struct AudioDeviceFormat: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }
    public var bytesPerFrame: Int { channels * 4 }
}

/// Something that shows video frames: a window, a headless sink, a frame tap.
///
/// Called only from the player's display thread.
public protocol VideoOutput: AnyObject {
    /// Shows `frame` now.
    func present(_ frame: VideoFrame)
    /// Gives the output a moment (about every 10 ms) to redraw overlays and read user
    /// input; returns what the user asked for.
    func idle(status: PlaybackStatus) -> [UserCommand]
    func close()
    /// True when the output hands the player's frame tap what it shows itself (a 360°
    /// view shows a rendering, not the decoded frame); the player then does not.
    var feedsFrameTap: Bool { get }
}

extension VideoOutput {
    public var feedsFrameTap: Bool { false }
}

/// Something that plays audio by pulling it, as a sound card does.
public protocol AudioOutput: AnyObject, Sendable {
    var format: AudioDeviceFormat { get }
    /// Starts pulling. `render` fills a buffer with interleaved float samples, given the
    /// device time (monotonic seconds) at which its first sample will be heard.
    func start(render: @escaping @Sendable (UnsafeMutableRawBufferPointer, _ heardAt: Double) -> Void) throws
    func setPaused(_ paused: Bool)
    func close()
}

/// What an output shows on its overlay.
public struct PlaybackStatus: Sendable {
    public var position: Double
    public var duration: Double?
    public var state: PlayerState
    public var volume: Double
    public var muted: Bool
    public var rate: Double
    public init(position: Double, duration: Double?, state: PlayerState, volume: Double, muted: Bool, rate: Double) {
        self.position = position
        self.duration = duration
        self.state = state
        self.volume = volume
        self.muted = muted
        self.rate = rate
    }
}

/// What a user asked an output for (keys, clicks).
public enum UserCommand: Sendable, Equatable {
    case togglePause
    case seekBy(Double)
    case seekTo(fraction: Double)
    case changeVolume(by: Double)
    case toggleMute
    case toggleFullscreen
    case changeRate(by: Double)
    case quit
}
