import ReelCore
import ReelFFmpeg

/// Per-frame MD5 checksums of a decoded stream, in the text form of `ffmpeg -f framemd5`,
/// to check decoding bit for bit against FFmpeg's own tools.
public enum FrameChecksums {
    /// What to hash and how to open and decode it.
    public struct Options: Sendable {
        /// The first stream of this type is hashed.
        public var stream: MediaType = .video
        /// How the input is opened.
        public var input = DemuxOptions()
        /// Decoder threads and hardware acceleration.
        public var decoder = DecoderOptions()
        /// Options; the first video stream, opened and decoded with FFmpeg's defaults, unless told.
        public init(stream: MediaType = .video, input: DemuxOptions = DemuxOptions(), decoder: DecoderOptions = DecoderOptions()) {
            self.stream = stream
            self.input = input
            self.decoder = decoder
        }
    }

    /// The lines of the framemd5 report for the first stream of `options.stream`'s type
    /// (`-map 0:v:0` / `-map 0:a:0`), header first. Audio is hashed in the decoder's own
    /// sample format, interleaved: compare with ffmpeg's `-c:a pcm_<format>` for it.
    public static func lines(of url: String, options: Options = Options()) -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream(bufferingPolicy: .unbounded)
        let interrupt = InterruptController(timeout: options.input.timeout)
        // A consumer that stops listening ends the work, even an open that is blocked.
        continuation.onTermination = { _ in interrupt.cancel() }
        BlockingThread.start(name: "reel.framemd5") {
            do {
                let demuxer = try Demuxer(url: url, options: options.input, interrupt: interrupt)
                try run(demuxer: demuxer, options: options) { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return stream
    }

    static func run(demuxer: Demuxer, options: Options, emit: (String) -> Void) throws {
        let index = try StreamDecoding.firstStream(of: options.stream, in: demuxer)
        var md5 = FrameMD5()
        var clock: FrameChecksumClock?
        // ffmpeg hands the packet's timing to the first frame decoded after it only.
        var packetOfNextFrame: Packet?
        let software = "Reel (\(FFmpegVersion.libavcodec))"

        func handle(_ frame: DecodedFrame) {
            switch frame {
            case .video(let video):
                if clock == nil {
                    let next = FrameChecksumClock(videoTimeBase: video.timeBase,
                                                  frameRate: demuxer.guessedFrameRate(ofStream: index),
                                                  startTime: demuxer.startTimeMicroseconds(readingOnly: [index]))
                    clock = next
                    FrameChecksumLog.header(for: .video(timeBase: next.outputTimeBase, width: video.width, height: video.height,
                                                        sampleAspectRatio: video.sampleAspectRatio.isKnown ? video.sampleAspectRatio : Rational(0, 1)),
                                            software: software).forEach(emit)
                }
                guard let tick = clock!.videoTick(pts: video.pts, durationTicks: video.duration) else { return }
                emit(FrameChecksumLog.row(pts: tick, duration: 1, size: video.packedByteCount, hash: md5.hash(video)))
            case .audio(let audio):
                if clock == nil {
                    let next = FrameChecksumClock(audioTimeBase: audio.timeBase, sampleRate: audio.sampleRate,
                                                  startTime: demuxer.startTimeMicroseconds(readingOnly: [index]))
                    clock = next
                    FrameChecksumLog.header(for: .audio(timeBase: next.outputTimeBase, codecName: audio.sampleFormat.pcmCodecName,
                                                        sampleRate: audio.sampleRate, channelLayout: audio.channelLayout),
                                            software: software).forEach(emit)
                }
                let tick = clock!.audioTick(pts: audio.pts, sampleCount: audio.sampleCount,
                                            packet: packetOfNextFrame.map { ($0.pts, $0.duration) })
                packetOfNextFrame = nil
                emit(FrameChecksumLog.row(pts: tick, duration: Int64(audio.sampleCount), size: audio.interleavedByteCount, hash: md5.hash(audio)))
            }
        }

        try StreamDecoding.decodeAll(demuxer, streamIndex: index, options: options.decoder,
                                     onPacket: { packetOfNextFrame = $0 }, onFrame: handle)
    }
}
