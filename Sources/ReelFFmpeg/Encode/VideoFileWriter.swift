import CFFmpeg
import ReelCore

/// Writes a video file with libavformat: pictures encoded with libx264 (constant quality)
/// or another libavcodec encoder, and optionally one stream copied packet by packet from
/// an input (audio).
///
/// Not `Sendable`: use it from one thread at a time, as FFmpeg's contexts require.
public final class VideoFileWriter {
    /// How the video is encoded.
    public struct Settings: Sendable {
        /// Picture width in pixels.
        public var width: Int
        /// Picture height in pixels.
        public var height: Int
        /// Timestamps of the pictures given to ``write(_:pts:)`` count in this unit.
        public var timeBase: Rational
        /// Pictures per second, written in the container.
        public var frameRate: Rational
        /// libx264's constant rate factor: 0 is lossless, 18 visually so, 23 its default.
        public var crf: Int
        /// libx264's preset: its speed/size trade-off.
        public var preset: String
        /// The libavcodec encoder: `libx264` unless set (`prores_ks`, `png`, `libvpx-vp9`…).
        public var encoder = "libx264"
        /// What the encoder takes; pictures in other formats are converted with libswscale.
        public var pixelFormat = PixelFormat.yuv420p
        /// Private options of the encoder (`profile`, `crf`…), besides `crf` and `preset`
        /// which go to libx264 and libx265 only.
        public var encoderOptions: [String: String] = [:]
        /// Options of the muxer.
        public var muxerOptions: [String: String] = [:]

        /// Settings for pictures of `width`×`height`; visually lossless at veryfast unless told.
        public init(width: Int, height: Int, timeBase: Rational, frameRate: Rational, crf: Int = 18, preset: String = "veryfast") {
            self.width = width
            self.height = height
            self.timeBase = timeBase
            self.frameRate = frameRate
            self.crf = crf
            self.preset = preset
        }
    }

    private let path: String
    /// Written under a hidden name until ``finish()``.
    private let file: PartialFile
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var videoStream: UnsafeMutablePointer<AVStream>?
    private var copied: CopiedStream?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var finished = false
    private let converter = PictureConverter()

    /// - Parameters:
    ///   - copying: a stream of `demuxer` whose packets ``write(copied:)`` will take (audio).
    public init(path: String, video settings: Settings, copying copiedStreamIndex: Int? = nil, of demuxer: Demuxer? = nil) throws {
        FFmpegLog.installIfNeeded()
        self.path = path
        file = PartialFile(path)
        let pixelFormat = av_get_pix_fmt(settings.pixelFormat.rawValue)
        guard pixelFormat != AV_PIX_FMT_NONE, let descriptor = av_pix_fmt_desc_get(pixelFormat) else { throw fail("unknown pixel format \(settings.pixelFormat)") }
        // libx264 and libx265 take only whole chroma samples; VP9 and others take any size.
        let wholeChroma = settings.encoder == "libx264" || settings.encoder == "libx265"
        let evenWidth = wholeChroma && descriptor.pointee.log2_chroma_w > 0, evenHeight = wholeChroma && descriptor.pointee.log2_chroma_h > 0
        guard settings.width > 0, settings.height > 0, !evenWidth || settings.width % 2 == 0, !evenHeight || settings.height % 2 == 0 else {
            throw fail("the size must be positive\(evenWidth || evenHeight ? " and even" : ""), got \(settings.width)x\(settings.height)")
        }
        var context: UnsafeMutablePointer<AVFormatContext>?
        var code = avformat_alloc_output_context2(&context, nil, nil, path)
        guard code >= 0, let context else { throw fail("no container for this file name (\(ffmpegErrorText(code)))") }
        format = context
        guard let codec = avcodec_find_encoder_by_name(settings.encoder) else { throw fail("libavcodec has no \(settings.encoder) encoder") }
        guard let encoder = avcodec_alloc_context3(codec), let stream = avformat_new_stream(context, nil) else { throw fail("out of memory") }
        self.encoder = encoder
        videoStream = stream
        encoder.pointee.width = Int32(settings.width)
        encoder.pointee.height = Int32(settings.height)
        encoder.pointee.pix_fmt = pixelFormat
        encoder.pointee.time_base = AVRational(num: Int32(settings.timeBase.numerator), den: Int32(settings.timeBase.denominator))
        encoder.pointee.framerate = AVRational(num: Int32(settings.frameRate.numerator), den: Int32(settings.frameRate.denominator))
        if context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 { encoder.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        var options: OpaquePointer?
        if settings.encoder == "libx264" || settings.encoder == "libx265" {
            av_dict_set(&options, "crf", "\(settings.crf)", 0)
            av_dict_set(&options, "preset", settings.preset, 0)
        }
        for (key, value) in settings.encoderOptions { av_dict_set(&options, key, value, 0) }
        code = avcodec_open2(encoder, codec, &options)
        av_dict_free(&options)
        guard code >= 0 else { throw fail("cannot open \(settings.encoder) (\(FFmpegLog.lastError ?? ffmpegErrorText(code)))") }
        avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
        stream.pointee.time_base = encoder.pointee.time_base

        if let index = copiedStreamIndex, let demuxer { copied = try CopiedStream(copying: index, of: demuxer, into: context) }
        if context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            code = avio_open(&context.pointee.pb, file.writingPath, AVIO_FLAG_WRITE)
            guard code >= 0 else { throw fail(ffmpegErrorText(code)) }
        }
        var muxerOptions: OpaquePointer?
        for (key, value) in settings.muxerOptions { av_dict_set(&muxerOptions, key, value, 0) }
        code = avformat_write_header(context, &muxerOptions)
        av_dict_free(&muxerOptions)
        guard code >= 0 else { throw fail("cannot write the header (\(ffmpegErrorText(code)))") }
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let frame, packet != nil else { throw fail("out of memory") }
        frame.pointee.format = pixelFormat.rawValue
        frame.pointee.width = Int32(settings.width)
        frame.pointee.height = Int32(settings.height)
        guard av_frame_get_buffer(frame, 0) >= 0 else { throw fail("out of memory") }
    }

    deinit {
        if let format, !finished, format.pointee.pb != nil, format.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            avio_closep(&format.pointee.pb)
            file.abandon()
        }
        avcodec_free_context(&encoder)
        av_frame_free(&frame)
        av_packet_free(&packet)
        avformat_free_context(format)
    }

    /// Encodes a picture of the writer's size shown at `pts` (in the settings' time base).
    public func write(_ picture: PixelBuffer, pts: Int64) throws {
        try write(frame: picture.videoFrame(), pts: pts)
    }

    /// Encodes a frame of the writer's size shown at `pts` (in the settings' time base),
    /// converted to the encoder's pixel format first when it differs.
    public func write(frame input: VideoFrame, pts: Int64) throws {
        guard let frame, let encoder, input.width == Int(encoder.pointee.width), input.height == Int(encoder.pointee.height) else {
            throw fail("pictures must be of the output size")
        }
        let target = PixelFormat(String(cString: av_get_pix_fmt_name(encoder.pointee.pix_fmt)))
        let picture = input.pixelFormat == target ? input : try converter.convert(input, to: target, quality: .accurate)
        guard av_frame_make_writable(frame) >= 0 else { throw fail("out of memory") }
        let targets = withUnsafeBytes(of: frame.pointee.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
        let strides = withUnsafeBytes(of: frame.pointee.linesize) { Array($0.bindMemory(to: Int32.self)) }
        for (plane, source) in picture.planes.enumerated() {
            guard plane < targets.count, let target = targets[plane] else { throw fail("no picture buffer") }
            let stride = Int(strides[plane])
            for row in 0..<source.rowCount {
                (target + row * stride).update(from: source.baseAddress.assumingMemoryBound(to: UInt8.self) + row * source.bytesPerRow, count: source.rowByteCount)
            }
        }
        frame.pointee.pts = pts
        try send(frame)
    }

    /// Writes a packet of the copied stream, its timestamps carried over.
    public func write(copied packet: Packet) throws {
        guard let copied, let format else { return }
        try copied.write(packet, to: format)
    }

    /// Drains the encoder and finishes the file.
    public func finish() throws {
        guard !finished, let format else { return }
        try send(nil)
        let writesFile = format.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0
        let code = av_write_trailer(format)
        let closed = writesFile ? avio_closep(&format.pointee.pb) : 0
        finished = true
        guard code >= 0, closed >= 0 else {
            if writesFile { file.abandon() }
            throw fail(ffmpegErrorText(code < 0 ? code : closed))
        }
        if writesFile { try file.commit() }
    }

    private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws {
        guard let encoder, let packet, let format, let videoStream else { return }
        var code = avcodec_send_frame(encoder, frame)
        guard code >= 0 else { throw fail("\(String(cString: encoder.pointee.codec.pointee.name)): \(ffmpegErrorText(code))") }
        while true {
            code = avcodec_receive_packet(encoder, packet)
            if code == FFmpegCode.again || code == FFmpegCode.endOfFile { return }
            guard code >= 0 else { throw fail("\(String(cString: encoder.pointee.codec.pointee.name)): \(ffmpegErrorText(code))") }
            packet.pointee.stream_index = videoStream.pointee.index
            // A packet without a duration shortens the track by a frame (its edit list
            // ends where the last frame starts): one frame period.
            if packet.pointee.duration <= 0, encoder.pointee.framerate.num > 0 {
                packet.pointee.duration = av_rescale_q(1, av_inv_q(encoder.pointee.framerate), encoder.pointee.time_base)
            }
            av_packet_rescale_ts(packet, encoder.pointee.time_base, videoStream.pointee.time_base)
            code = av_interleaved_write_frame(format, packet)
            guard code >= 0 else { throw fail(ffmpegErrorText(code)) }
        }
    }

    private func fail(_ detail: String) -> InputError {
        InputError(.other, operation: .open, url: path, detail: "cannot write: \(detail)")
    }
}

@available(*, unavailable, message: "use it from one thread at a time")
extension VideoFileWriter: Sendable {}
