import CFFmpeg
import ReelCore

/// A decoded frame of either kind.
public enum DecodedFrame: Sendable {
    /// A picture.
    case video(VideoFrame)
    /// A run of audio samples.
    case audio(AudioFrame)
}

/// A libavcodec decoder for one stream of a ``Demuxer``.
///
/// Feed it packets with ``decode(_:_:)`` and, at the end, ``drain(_:)``; after a seek,
/// ``flush()``. Use from one thread at a time.
public final class Decoder {
    /// The stream it decodes.
    public let streamIndex: Int
    /// Video or audio.
    public let type: MediaType
    /// The decoder's name (`h264`, `aac`…).
    public let codecName: String
    /// Whether frames come from a hardware device (`false` after a fallback to software).
    public let isHardwareAccelerated: Bool
    /// Packets the decoder rejected as damaged; decoding goes on past them as ffmpeg does.
    public private(set) var damagedPacketCount = 0
    /// Where decoded frames come from and go back to.
    public let framePool: FramePool
    /// The last damaged packet's error, in FFmpeg's words.
    public private(set) var lastDamage: String?

    private let context: UnsafeMutablePointer<AVCodecContext>
    private let timeBase: Rational
    /// A sample aspect ratio the container declares; it overrides the bitstream's.
    private let containerAspectRatio: Rational?
    private var hardwareDevice: UnsafeMutablePointer<AVBufferRef>?
    private var hardwareFormat: AVPixelFormat = AV_PIX_FMT_NONE
    private var isDrained = false

    /// Opens a decoder for stream `streamIndex` of `demuxer`.
    public convenience init(demuxer: Demuxer, streamIndex: Int, options: DecoderOptions = DecoderOptions(), framePool: FramePool = FramePool()) throws {
        guard let stream = demuxer.stream(at: streamIndex) else { throw DecodeError(.noSuchStream(.unknown)) }
        let sar = stream.pointee.sample_aspect_ratio
        try self.init(parameters: stream.pointee.codecpar!, timeBase: stream.pointee.time_base, streamIndex: streamIndex,
                      containerAspectRatio: sar.num > 0 && sar.den > 0 ? Rational(sar) : nil, options: options, framePool: framePool)
    }

    /// Opens a video decoder for packets that come from elsewhere than a ``Demuxer`` (such
    /// as Reel's own MP4 reader): `codec` is FFmpeg's name (`h264`, `hevc`),
    /// `configuration` the `avcC`/`hvcC` body. Packets given to it use stream index 0.
    public convenience init(videoCodec codec: String, configuration: [UInt8], width: Int, height: Int, timeBase: Rational,
                            options: DecoderOptions = DecoderOptions(), framePool: FramePool = FramePool()) throws {
        guard let descriptor = avcodec_descriptor_get_by_name(codec) else { throw DecodeError(.decoderNotFound, codec: codec) }
        guard let parameters = avcodec_parameters_alloc() else { throw DecodeError(.openFailed, codec: codec, detail: "out of memory") }
        var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
        defer { avcodec_parameters_free(&owned) }
        parameters.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        parameters.pointee.codec_id = descriptor.pointee.id
        parameters.pointee.width = Int32(clamping: width)
        parameters.pointee.height = Int32(clamping: height)
        if !configuration.isEmpty {
            guard let extradata = av_mallocz(configuration.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
                throw DecodeError(.openFailed, codec: codec, detail: "out of memory")
            }
            configuration.withUnsafeBytes { extradata.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            parameters.pointee.extradata = extradata.assumingMemoryBound(to: UInt8.self)
            parameters.pointee.extradata_size = Int32(configuration.count)
        }
        try self.init(parameters: parameters, timeBase: AVRational(num: Int32(clamping: timeBase.numerator), den: Int32(clamping: timeBase.denominator)),
                      streamIndex: 0, containerAspectRatio: nil, options: options, framePool: framePool)
    }

    private init(parameters: UnsafeMutablePointer<AVCodecParameters>, timeBase streamTimeBase: AVRational, streamIndex: Int,
                 containerAspectRatio: Rational?, options: DecoderOptions, framePool: FramePool) throws {
        FFmpegLog.installIfNeeded()
        self.framePool = framePool
        self.streamIndex = streamIndex
        self.type = MediaType(parameters.pointee.codec_type)
        self.codecName = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        self.timeBase = Rational(streamTimeBase)
        self.containerAspectRatio = containerAspectRatio
        guard type == .video || type == .audio else { throw DecodeError(.noSuchStream(type), codec: codecName) }
        if type == .video {
            let (width, height) = (Int(parameters.pointee.width), Int(parameters.pointee.height))
            guard width <= DecodeLimits.maxDimension, height <= DecodeLimits.maxDimension else {
                throw DecodeError(.tooLarge, codec: codecName, detail: "\(width)x\(height)")
            }
        }
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else { throw DecodeError(.decoderNotFound, codec: codecName) }
        guard let context = avcodec_alloc_context3(codec) else { throw DecodeError(.openFailed, codec: codecName, detail: "out of memory") }
        self.context = context
        var code = avcodec_parameters_to_context(context, parameters)
        if code < 0 { throw DecodeError(.openFailed, codec: codecName, code: code, detail: ffmpegErrorText(code)) }
        context.pointee.pkt_timebase = streamTimeBase
        context.pointee.thread_count = Int32(clamping: max(options.threadCount, 0))
        if options.lowDelay { context.pointee.thread_type = FF_THREAD_SLICE }
        if type == .video, let device = HardwareDevice.open(options.hardware, codec: codec) {
            context.pointee.hw_device_ctx = av_buffer_ref(device.context)
            hardwareDevice = device.context
            hardwareFormat = device.format
        }
        isHardwareAccelerated = hardwareDevice != nil
        FFmpegLog.clearLastError()
        code = avcodec_open2(context, codec, nil)
        if code < 0 { throw DecodeError(.openFailed, codec: codecName, code: code, detail: FFmpegLog.lastError ?? ffmpegErrorText(code)) }
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&pointer)
        av_buffer_unref(&hardwareDevice)
    }

    /// Decodes one packet of this decoder's stream and hands over every frame it yields.
    public func decode(_ packet: Packet, _ body: (DecodedFrame) throws -> Void) throws {
        precondition(packet.streamIndex == streamIndex, "packet of another stream")
        let avPacket: UnsafeMutablePointer<AVPacket>
        if let box = packet.owner as? PacketBox {
            avPacket = box.packet
        } else {
            avPacket = try Self.makePacket(copying: packet)
        }
        defer { if !(packet.owner is PacketBox) { var p: UnsafeMutablePointer<AVPacket>? = avPacket; av_packet_free(&p) } }
        try send(avPacket, body)
    }

    /// Signals the end of the stream and hands over the frames still inside the decoder.
    public func drain(_ body: (DecodedFrame) throws -> Void) throws {
        guard !isDrained else { return }
        isDrained = true
        try send(nil, body)
    }

    /// Forgets buffered packets and frames (after a seek); the decoder can be fed again.
    public func flush() {
        avcodec_flush_buffers(context)
        isDrained = false
    }

    private func send(_ packet: UnsafeMutablePointer<AVPacket>?, _ body: (DecodedFrame) throws -> Void) throws {
        while true {
            FFmpegLog.clearLastError()
            let code = avcodec_send_packet(context, packet)
            if code == FFmpegCode.again {
                // The decoder is full: take its frames out, then offer the packet again.
                try receiveAll(body)
                continue
            }
            if code < 0 && code != FFmpegCode.endOfFile {
                try recordDamage(code)
            }
            try receiveAll(body)
            return
        }
    }

    private func receiveAll(_ body: (DecodedFrame) throws -> Void) throws {
        while true {
            guard var frame = framePool.take() else { throw DecodeError(.other, codec: codecName, detail: "out of memory") }
            var box = FrameBox(frame, pool: framePool)
            FFmpegLog.clearLastError()
            let code = avcodec_receive_frame(context, frame)
            if code == FFmpegCode.again || code == FFmpegCode.endOfFile { return }
            if code < 0 {
                try recordDamage(code)
                continue
            }
            if hardwareDevice != nil, frame.pointee.format == hardwareFormat.rawValue {
                guard let software = framePool.take() else { throw DecodeError(.other, codec: codecName, detail: "out of memory") }
                let transferred = FrameBox(software, pool: framePool)
                let transferCode = av_hwframe_transfer_data(software, frame, 0)
                guard transferCode >= 0 else { throw DecodeError(.other, codec: codecName, code: transferCode, detail: ffmpegErrorText(transferCode)) }
                av_frame_copy_props(software, frame)
                frame = software
                box = transferred
            }
            consecutiveDamage = 0
            switch type {
            case .video:
                var video = try VideoFrame(box: box, timeBase: timeBase)
                if let containerAspectRatio { video.sampleAspectRatio = containerAspectRatio }
                try body(.video(video))
            default: try body(.audio(AudioFrame(box: box, timeBase: timeBase)))
            }
        }
    }

    /// ffmpeg goes on after a damaged packet; so do we, but a decoder that rejects
    /// everything it is fed is not decoding at all.
    private static let maxConsecutiveDamage = 1000
    private var consecutiveDamage = 0

    private func recordDamage(_ code: Int32) throws {
        damagedPacketCount += 1
        consecutiveDamage += 1
        lastDamage = FFmpegLog.lastError ?? ffmpegErrorText(code)
        if code == FFmpegCode.posix(ENOMEM) || consecutiveDamage > Self.maxConsecutiveDamage {
            throw DecodeError(.invalidData, codec: codecName, code: code, detail: lastDamage)
        }
    }

    static func makePacket(copying packet: Packet) throws -> UnsafeMutablePointer<AVPacket> {
        guard let avPacket = av_packet_alloc(), av_new_packet(avPacket, Int32(clamping: packet.data.count)) >= 0 else {
            throw DecodeError(.other, detail: "out of memory")
        }
        if let source = packet.data.baseAddress { avPacket.pointee.data.update(from: source.assumingMemoryBound(to: UInt8.self), count: packet.data.count) }
        avPacket.pointee.pts = packet.pts ?? FFmpegCode.noPTS
        avPacket.pointee.dts = packet.dts ?? FFmpegCode.noPTS
        avPacket.pointee.duration = packet.duration
        if packet.isKeyframe { avPacket.pointee.flags |= AV_PKT_FLAG_KEY }
        return avPacket
    }
}

@available(*, unavailable, message: "use it from one thread at a time")
extension Decoder: Sendable {}
