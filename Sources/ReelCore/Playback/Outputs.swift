/// The sample format every audio output plays: interleaved 32-bit float.
public struct AudioDeviceFormat: Sendable, Equatable {
    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels.
    public var channels: Int
    /// A device format.
    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }
    /// Bytes of one frame: a float per channel.
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
    /// Releases the output (closes a window); called once, on the display thread.
    func close()
    /// True when the output hands the player's frame tap what it shows itself (a 360°
    /// view shows a rendering, not the decoded frame); the player then does not.
    var feedsFrameTap: Bool { get }
    /// True when the output shows a view made from the frame (a 360° view) rather than the
    /// frame: what goes over the picture (subtitles) is then drawn over the view, through
    /// ``present(_:overlay:)``, not into the frame.
    var showsAView: Bool { get }
    /// Shows `frame` now, with `overlay` drawn over what is shown.
    func present(_ frame: VideoFrame, overlay: @escaping PictureOverlay)
    /// False when ``idle(status:)`` has nothing to do (no window, no keys): the display
    /// thread then wakes only for frames, their times and changes of the playback, not
    /// every 10 ms (a camera wall's tiles: 100 wake-ups a second each).
    var wantsIdle: Bool { get }
}

/// Draws what goes over the picture (subtitles) into a picture of any size: a new frame,
/// or the one given when nothing shows.
public typealias PictureOverlay = (VideoFrame) -> VideoFrame

extension VideoOutput {
    public var feedsFrameTap: Bool { false }
    public var showsAView: Bool { false }
    public var wantsIdle: Bool { true }
    public func present(_ frame: VideoFrame, overlay: @escaping PictureOverlay) { present(overlay(frame)) }
}

/// Something that plays audio by pulling it, as a sound card does.
public protocol AudioOutput: AnyObject, Sendable {
    /// What the device plays; the player converts audio to it.
    var format: AudioDeviceFormat { get }
    /// Starts pulling. `render` fills a buffer with interleaved float samples, given the
    /// device time (monotonic seconds) at which its first sample will be heard.
    func start(render: @escaping @Sendable (UnsafeMutableRawBufferPointer, _ heardAt: Double) -> Void) throws
    /// Holds or resumes pulling, without losing what is queued.
    func setPaused(_ paused: Bool)
    /// Stops pulling and releases the device.
    func close()
}

/// What an output shows on its overlay.
public struct PlaybackStatus: Sendable {
    /// Seconds on the player's clock.
    public var position: Double
    /// Seconds; `nil` when unknown (a live stream).
    public var duration: Double?
    /// Playing, paused, buffering…
    public var state: PlayerState
    /// The volume, 0 to 1.
    public var volume: Double
    /// Whether the sound is off.
    public var muted: Bool
    /// The playback speed, 1 being normal.
    public var rate: Double
    /// The title of the chapter being played, when the input has titled chapters.
    public var chapterTitle: String?
    /// A passing message to show (a screenshot written, an A-B loop point set).
    public var message: String?
    /// A live input's timeshift, as ``position`` counts times: from the oldest moment
    /// kept to the newest media. The progress bar spans it; nil without one.
    public var timeshiftWindow: ClosedRange<Double>?
    /// The input playing (a file or URL), for thumbnails of it on the seek bar.
    public var input: String?
    /// A status to show.
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
    /// Pause if playing, play if paused (space).
    case togglePause
    /// Seek by this many seconds, back when negative (arrow keys).
    case seekBy(Double)
    /// Seek to this fraction of the duration, 0 to 1 (a click on the progress bar).
    case seekTo(fraction: Double)
    /// Change the volume by this much, the result kept within 0–1.
    case changeVolume(by: Double)
    /// Mute or unmute (m).
    case toggleMute
    /// Enter or leave fullscreen (f, a double click).
    case toggleFullscreen
    /// Change the speed by this much, 0.1 a step (`[` and `]`).
    case changeRate(by: Double)
    /// Go this many chapters on, back when negative (Page Down, Page Up).
    case changeChapter(by: Int)
    /// Show the next frame and stay paused (`.`), or the previous one (`,`).
    case stepFrame(forward: Bool)
    /// Write the frame on screen to a PNG file (`s`).
    case screenshot
    /// Set point A, then point B of a loop, then clear it (`l`).
    case toggleABLoop
    /// Play the next audio track, after the last the first (`#`).
    case cycleAudioTrack
    /// Show the next subtitle track, after the last none (`j`).
    case cycleSubtitleTrack
    /// Hide or show the subtitles (`v`).
    case toggleSubtitles
    /// Show subtitles this many seconds later, earlier when negative (`z` −0.1, `x` +0.1).
    case changeSubtitleDelay(by: Double)
    /// Go this many playlist items on, back when negative (`>` and Enter, `<`).
    case movePlaylist(by: Int)
    /// Back to a live input's newest media after a pause or a seek back inside its
    /// timeshift (End).
    case goLive
    /// Talk to the camera, or stop talking (`t`, push-to-talk of a talk-back).
    case toggleTalk
    /// Stop and close (q, Escape, the window's close button).
    case quit
    /// Stop and close, saving the position to resume from the next time (Q).
    case quitSavingPosition
}
