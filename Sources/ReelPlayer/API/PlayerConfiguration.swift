import ReelCore
import ReelFFmpeg

/// Which clock the others follow.
public enum ClockMaster: String, Sendable, CaseIterable {
    /// The sound card's (the default where there is audio).
    case audio
    /// The video frames' own timestamps.
    case video
    /// A free-running clock at the playback rate.
    case external
}

/// Where video decoding runs (SGPlayer's table: software decoding of flat video is
/// asynchronous by default).
public enum VideoDecoding: String, Sendable {
    /// On a video decode thread of its own, fed by a packet queue.
    case asynchronous
    /// On the read thread, as soon as a packet is read.
    case synchronous
}

/// How far a seek goes to reach its target.
public enum SeekMode: String, Sendable {
    /// To the keyframe at or before the target: fast.
    case keyframe
    /// To the frame that is on screen at the target: decodes from the keyframe before.
    case exact
}

/// How video is turned for display.
public enum VideoRotation: Sendable, Hashable {
    /// As the stream's display matrix says (a phone's portrait video upright), then turned
    /// further by `adding`, as mpv's `--video-rotate` adds to the file's rotation.
    case automatic(adding: PictureOrientation = .upright)
    /// Exactly this, whatever the stream says; `.fixed(.upright)` shows frames as decoded.
    case fixed(PictureOrientation)

    /// The turn for a stream whose display matrix asks for `stream`.
    public func orientation(forStream stream: PictureOrientation) -> PictureOrientation {
        switch self {
        case .automatic(let extra): stream.followed(by: extra)
        case .fixed(let orientation): orientation
        }
    }
}

extension Player {
    /// How a ``Player`` plays.
    public struct Configuration: Sendable {
        /// The clock the others follow: audio where there is audio, as ffplay.
        public var clockMaster: ClockMaster = .audio
        /// Where video is decoded: on a thread of its own, or on the read thread.
        public var videoDecoding: VideoDecoding = .asynchronous
        /// Decoder threads and hardware acceleration.
        public var decoder = DecoderOptions()
        /// How the input is opened: the timeout of a blocking open or read, the format, options.
        public var input = DemuxOptions()
        /// Present every frame as soon as it is decoded, with no sync and no drops (benchmarks).
        public var untimed = false
        /// Packets queued ahead of decoding, per stream: bytes and seconds (ffplay: 15 MB total).
        public var packetQueueBytes = 16 << 20
        /// Seconds of packets queued ahead of decoding, per stream; with GStreamer's engine,
        /// how far ahead an adaptive stream's segments are downloaded.
        public var packetQueueSeconds = 10.0
        /// Decoded frames queued ahead of display (ffplay: 3 video, 9 audio).
        public var videoFrameQueueCount = 4
        /// Decoded audio frames queued ahead of the device.
        public var audioFrameQueueCount = 12
        /// How video is turned for display: upright as the stream says, by default. The
        /// window, snapshots and headless outputs show turned frames.
        public var rotation: VideoRotation = .automatic()
        /// Whether the frame tap hands over the frames as shown (turned, subtitles drawn
        /// in); by default it hands over what was decoded, as other consumers (encoders,
        /// analysis) usually want.
        public var tapsOrientedFrames = false
        /// Events `time` are sent at most this often, seconds.
        public var timeUpdateInterval = 0.25
        /// Where the window's `s` key writes screenshots (mpv's `--screenshot-directory`).
        public var screenshotDirectory = "."
        /// Which audio track plays: FFmpeg's best stream by default, a language list or a
        /// track number (mpv's `--alang`, `--aid`), or none.
        public var audioTrack: TrackRequest = .automatic()
        /// Which subtitle track shows (mpv's `--slang`, `--sid`): by default one only
        /// when wanted (a language asked for, an external file, or a track marked default
        /// or forced). Subtitles are drawn into the frames shown, snapshots and the tap's
        /// shown frames included.
        public var subtitleTrack: TrackRequest = .automatic()
        /// How HDR video (PQ, HLG) is mapped for an SDR display (mpv's `--tone-mapping`):
        /// with the Hable curve by default; nil shows it unmapped (washed out).
        public var toneMapping: ToneMapper.Curve? = .hable
        /// When pictures are deinterlaced, with libavfilter's bwdif (mpv's `--deinterlace`):
        /// by default from the first picture the decoder flags as interlaced.
        public var deinterlace: DeinterlaceSetting = .auto
        /// A picture per field (twice the frame rate, by default) or per frame.
        public var deinterlaceMode: DeinterlaceMode = .field
        /// When sound is brought to −16 LUFS (EBU R128) as it plays: live inputs only by
        /// default (``LoudnessNormalizer``, through libavfilter's ebur128, volume and alimiter).
        public var normalization: LoudnessNormalization = .auto
        /// libavfilter's audio filters the sound goes through first (mpv's and ffmpeg's
        /// `--af`: `equalizer=f=1000:t=q:w=1:g=-6,acompressor`); nil for none.
        public var audioFilters: String?
        /// Decibels added on top of the volume (mpv's `--volume-gain`): 6 is twice the amplitude.
        public var volumeGain: Double = 0
        /// Subtitle files to load beside the input (mpv's `--sub-file`): SubRip, WebVTT,
        /// ASS/SSA, or anything FFmpeg reads as text subtitles. They follow the input's own
        /// tracks in ``Player/tracks``.
        public var subtitleFiles: [String] = []
        /// Also loads the subtitle files beside a local input named as it is (`movie.srt`,
        /// `movie.ass` beside `movie.mkv`), for each input opened, as mpv's `--sub-auto=exact`.
        public var loadsSameNameSubtitles = false
        /// Seconds subtitles show later (earlier when negative) than their times say.
        public var subtitleDelay = 0.0
        /// Text size factor for subtitles (mpv's `--sub-scale`).
        public var subtitleScale = 1.0

        /// Whether the input is played live: by default when it looks live (a live
        /// protocol, or a network input without a duration). A live input is opened with
        /// a small probe and no demuxer buffering, decoded with low delay, and played
        /// `liveLatency.target` behind the newest media received.
        public var live: LiveMode = .auto
        /// A live input's target latency and how it is kept.
        public var liveLatency = LiveLatency()
        /// Seconds a live input that ends or fails is tried again for (opened anew with
        /// back-off from 0.25 s to 4 s, `ReconnectSchedule`) before playback fails;
        /// 0 never reconnects.
        public var reconnectFor = 30.0
        /// Seconds of a live input kept on disk for going back (a timeshift): pause, seek
        /// back and ``Player/goLive()`` then work inside that window, and live catch-up
        /// waits while the viewer is behind on purpose. Nil (the default) keeps nothing.
        /// Inputs FFmpeg reads only (not Reel's own RTP receiver).
        public var timeshift: Double?
        /// Where the timeshift's files are made (the system's temporary directory by
        /// default). They are unlinked at once: nothing stays there, however the process ends.
        public var timeshiftDirectory: String?
        /// The most bytes the timeshift keeps, whatever its window: the oldest go first.
        public var timeshiftMaximumBytes = 4 << 30
        /// Read the `LatencyTimecode` of every picture shown (as `reel encode --camera
        /// --timecode` draws it) and report the latency from capture to screen in
        /// ``PlayerStatistics/glassToGlass``.
        public var measuresLatency = false
        /// Seconds after the first timecode read during which pictures are not counted
        /// (the opening's backlog).
        public var latencyWarmup = 0.0

        /// Which engine decodes each input: by the documented rules (``EngineSelection``),
        /// or always FFmpeg or GStreamer.
        public var engine: EngineSelection = .automatic

        /// The tallest variant an adaptive stream (an HLS master playlist) may switch to,
        /// rows (mpv's `--hls-bitrate` by size); nil for no cap. Through FFmpeg, which
        /// plays one variant, the one it plays.
        public var maximumVariantHeight: Int?

        /// The bearer token sent to a WHEP endpoint (`whep+https://…`), when it wants one.
        public var whepToken: String?
        /// How long a WebRTC input's jitter buffer holds packets (seconds), for late and
        /// retransmitted ones: a lost packet is recovered only if its retransmission comes
        /// within it, and every picture waits this long.
        public var webRTCLatency = 0.05

        /// ffplay's defaults, with queues a little deeper.
        public init() {}
    }
}
