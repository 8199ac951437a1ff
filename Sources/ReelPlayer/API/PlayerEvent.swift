import ReelCore

/// What a ``Player`` tells its listeners.
public enum PlayerEvent: Sendable {
    /// The player moved to a new state (``Player/state``).
    case stateChanged(PlayerState)
    /// The playback position, at most every `timeUpdateInterval`.
    case time(position: Double)
    /// The first frame after opening was shown, `latency` seconds after `open` began.
    case firstFrame(latency: Double)
    /// A seek finished: the frame at `position` seconds is on screen.
    case seekCompleted(position: Double)
    /// Every stream was played to its end (of a playlist, its last item's, nothing left to play).
    case endOfStream
    /// A playlist item was opened in place of the one before (``Player/open(_:startingAt:)``);
    /// its first frame follows.
    case itemStarted(index: Int, url: String)
    /// A playlist item could not be opened, or failed while playing; the next one plays.
    case itemFailed(index: Int, url: String, error: PlayerError)
    /// A live input's latency (``PlayerStatistics/liveLatency``), at most every
    /// `timeUpdateInterval`.
    case liveLatency(Double)
    /// A live input was made to play faster, back at normal speed, or jumped ahead, to keep
    /// its latency on target (``Player/Configuration/liveLatency``).
    case liveAdjusted(LiveAdjustment)
    /// A live input ended or failed (`reason`) and is being opened again: attempt
    /// `attempt`, from 1 (``Player/Configuration/reconnectFor``).
    case reconnecting(attempt: Int, reason: String)
    /// The live input plays again, after `attempts` attempts, `seconds` after it was lost.
    /// Its first picture follows (``firstPictureAfterReconnect(seconds:outage:)``).
    case reconnected(attempts: Int, seconds: Double)
    /// The first picture of a live input opened again is on screen: `seconds` after the
    /// attempt that succeeded began (connecting, probing, decoding: the player's part),
    /// `outage` seconds after the input was lost (what the viewer missed).
    case firstPictureAfterReconnect(seconds: Double, outage: Double)
    /// The engine that decodes the input was chosen (``Player/Configuration/engine``), and why.
    case engineChosen(EngineDecision)
    /// The engine chosen could not play the input (`reason`), so it was handed to the other.
    case engineFallback(from: PlaybackEngineKind, to: PlaybackEngineKind, reason: String)
    /// An adaptive stream's pictures now come from another variant: its size, and the
    /// download bandwidth the demuxer measured (bits/s) when it switched.
    case variantChanged(width: Int, height: Int, bandwidth: Int?)
    /// How full the GStreamer engine's network buffer is, 0 to 100, as GStreamer's elements
    /// report it (playbin's buffering percentage). The FFmpeg engine reads into the shell's
    /// own packet queues and reports none; whichever engine plays, the shell's
    /// ``PlayerState/buffering`` state says when playback waits for data.
    case bufferingProgress(percent: Int)
    /// A recording could not be written (a full disk): it stopped, playback goes on.
    case recordingFailed(PlayerError)
    /// Playback failed; the player is in the failed state.
    case error(PlayerError)
    /// A screenshot asked for in the window (`s`) was written to `path`.
    case screenshotSaved(path: String)
    /// A screenshot asked for in the window could not be written; playback goes on.
    case screenshotFailed(reason: String)
    /// The window asked to quit (q, Escape, its close button; `Q` to save the position to
    /// resume from, ``Player/resumePoint``); the player stops right after.
    case quitAsked(savingPosition: Bool)
    /// An animation over the picture (``Player/overlays``) was started.
    case overlayStarted(id: Int)
    /// Frame `frame` (from 0 in each loop) of the animation over the picture was drawn for
    /// the first time; a frame not made in time is not told.
    case overlayFrame(id: Int, frame: Int)
    /// An animation over the picture played its loops, or was stopped.
    case overlayFinished(id: Int)
}

/// Why a track cannot be selected.
public enum TrackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input has no audio stream of that index.
    case noSuchAudioStream(Int)
    /// The input has no subtitle track of that number.
    case noSuchSubtitleTrack(Int)
    /// The track's format has no decoder in this FFmpeg build.
    case cannotShowSubtitles(String)

    public var description: String {
        switch self {
        case .noSuchAudioStream(let index): "the input has no audio stream \(index)"
        case .noSuchSubtitleTrack(let number): "there is no subtitle track \(number)"
        case .cannotShowSubtitles(let track): "\(track): this FFmpeg has no decoder for it"
        }
    }
}

/// Why ``Player/screenshot(to:)`` wrote nothing.
public enum ScreenshotError: Error, Sendable, CustomStringConvertible {
    /// No frame has been shown yet.
    case noFrame
    /// Every name from `reel-shot0001.png` to `reel-shot9999.png` is taken in the directory.
    case namesExhausted(String)

    public var description: String {
        switch self {
        case .noFrame: "no frame is on screen yet"
        case .namesExhausted(let directory): "\(directory) already holds reel-shot0001.png to reel-shot9999.png"
        }
    }
}

/// A failure while playing, as one line a user understands.
public struct PlayerError: Error, Sendable, CustomStringConvertible {
    public var description: String
    /// The typed error underneath (`InputError`, `DecodeError`…).
    public var underlying: any Error & Sendable

    /// Wraps `underlying`, described as it describes itself.
    public init(_ underlying: any Error & Sendable) {
        self.underlying = underlying
        self.description = "\(underlying)"
    }
}

/// Counters of a playback, for `--stats` and tests.
public struct PlayerStatistics: Sendable, Codable {
    /// The engine decoding the input (``Player/Configuration/engine``).
    public var engine: PlaybackEngineKind?
    /// What reads the input: the demuxer's long name (`QuickTime / MOV`, `RTSP input`), or
    /// Reel's own receiver (`RTSP (Reel's client and RTP receiver, UDP)`).
    public var input: String?
    /// What decodes the video: FFmpeg's decoder (`h264`) or GStreamer's element
    /// (`avdec_h264`), with ` (hardware)` when it decodes on hardware.
    public var videoDecoder: String?
    /// An adaptive stream's variant being shown (`1280x720`) and the download bandwidth its
    /// demuxer measures (bits/s); nil for other inputs.
    public var variant: String?
    /// The adaptive demuxer's measured download bandwidth, bits/s.
    public var adaptiveBandwidth: Int?
    /// Seconds from the start of the input.
    public var position: Double = 0
    /// Video frames presented.
    public var framesShown = 0
    /// Video frames decoded but dropped because they were late.
    public var framesDropped = 0
    /// Video clock minus audio clock at the last presented frame, seconds.
    public var avOffset: Double?
    /// Video packets waiting to be decoded.
    public var videoPacketsQueued = 0
    /// Decoded video frames waiting to be shown.
    public var videoFramesQueued = 0
    /// Audio packets waiting to be decoded.
    public var audioPacketsQueued = 0
    /// Decoded audio frames waiting for the device.
    public var audioFramesQueued = 0
    /// Times the device asked for audio and none was ready.
    public var audioUnderruns = 0
    /// AVFrames allocated by the decoders' pools since opening.
    public var framesAllocated = 0
    /// Seconds from the start of opening to the first frame on screen.
    public var firstFrameLatency: Double?
    /// The longest wall-clock time between two presented frames while playing (pauses,
    /// seeks and buffering excluded), seconds: a stall shows here.
    public var longestFrameInterval: Double?
    /// A live input's latency: the newest media received minus the media played, seconds;
    /// nil when the input is not live.
    public var liveLatency: Double?
    /// Times a live input played faster to get back to its target latency.
    public var liveCatchUps = 0
    /// Times a live input jumped ahead to its target latency.
    public var liveJumps = 0
    /// Times the live input was lost and played again (``Player/Configuration/reconnectFor``),
    /// since it was opened. The other counters are of the input since its last reconnect.
    public var reconnects = 0
    /// Of the last reconnect: seconds from the start of the attempt that succeeded to the
    /// first picture shown (``PlayerEvent/firstPictureAfterReconnect(seconds:outage:)``).
    public var firstPictureAfterReconnect: Double?
    /// Of the last reconnect: seconds from the loss of the input to its first picture again.
    public var reconnectOutage: Double?
    /// Seconds of the live input kept for going back (``Player/Configuration/timeshift``);
    /// nil without a timeshift.
    public var timeshiftSeconds: Double?
    /// The bytes the timeshift's files take on disk, as the system counts them.
    public var timeshiftBytes: Int?
    /// Frames of the animations over the picture (``Player/overlays``) that were not made
    /// in time to be drawn: the one before stayed on screen instead.
    public var overlayFramesLate = 0
    /// Bytes of the input's packets read so far by this input's session (nil through an
    /// engine that does not count them): over time, the stream's bit rate.
    public var bytesRead: Int64?
    /// A WebRTC input's packets lost, asked for again and repaired, and keyframes asked
    /// for, as its receiver counted them; nil for other inputs.
    public var reception: WebRTCReceptionStatistics?
    /// From capture to screen, with ``Player/Configuration/measuresLatency``: the
    /// latencies of the pictures shown, by the `LatencyTimecode` in them.
    public var glassToGlass: LatencySummary?

    /// All counters at zero.
    public init() {}
}
