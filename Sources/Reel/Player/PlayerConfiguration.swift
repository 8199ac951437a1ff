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
        /// Seconds of packets queued ahead of decoding, per stream.
        public var packetQueueSeconds = 10.0
        /// Decoded frames queued ahead of display (ffplay: 3 video, 9 audio).
        public var videoFrameQueueCount = 4
        /// Decoded audio frames queued ahead of the device.
        public var audioFrameQueueCount = 12
        /// Events `time` are sent at most this often, seconds.
        public var timeUpdateInterval = 0.25

        /// ffplay's defaults, with queues a little deeper.
        public init() {}
    }
}
