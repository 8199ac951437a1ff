import CFFmpeg
import ReelCore

/// One encoded packet as libavcodec hands it out: Annex B NAL units and their timing in
/// the encoder's time base.
public struct EncodedPacket: Sendable {
    /// The NAL units, each after a start code.
    public var annexB: [UInt8]
    /// Presentation timestamp in the encoder's time base.
    public var pts: Int64
    /// Decode timestamp in the encoder's time base.
    public var dts: Int64
    /// An IDR picture: decoding can start here.
    public var isKeyframe: Bool
}

/// A thin libavcodec encoder over libx264 or libx265 set from ``EncoderProperties``:
/// parameter sets out of band (global header), I420 pictures in, Annex B packets out.
///
/// Not `Sendable`: use it from one thread at a time, as FFmpeg's contexts require.
public final class VideoEncoder {
    /// H.264 (libx264) or H.265 (libx265).
    public let codec: VideoCodec
    /// Picture width in pixels.
    public let width: Int
    /// Picture height in pixels.
    public let height: Int
    /// Ticks of the pts given to ``encode(_:pts:forceKeyframe:)``.
    public let timeBase: Rational
    /// The parameter sets libavcodec produced on opening (`extradata`), as NAL units.
    public let parameterSets: [[UInt8]]
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let converter = PictureConverter()

    /// Opens the encoder; `timeBase` is the unit of the timestamps given to it.
    public init(codec: VideoCodec, width: Int, height: Int, timeBase: Rational, properties: EncoderProperties) throws {
        try properties.validate(codec: codec, width: width, height: height)
        FFmpegLog.installIfNeeded()
        self.codec = codec
        self.width = width
        self.height = height
        self.timeBase = timeBase
        let name = codec == .h264 ? "libx264" : "libx265"
        guard let encoder = avcodec_find_encoder_by_name(name) else { throw EncoderError(.encoderFailed, "libavcodec has no \(name) encoder") }
        guard let context = avcodec_alloc_context3(encoder) else { throw EncoderError(.encoderFailed, "out of memory") }
        self.context = context
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = AVRational(num: Int32(timeBase.numerator), den: Int32(timeBase.denominator))
        context.pointee.framerate = AVRational(num: Int32(properties.expectedFrameRate.numerator), den: Int32(properties.expectedFrameRate.denominator))
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        context.pointee.thread_count = Int32(properties.threads)
        context.pointee.gop_size = Int32(properties.maxKeyFrameInterval)
        if !properties.usesFrameReordering { context.pointee.max_b_frames = 0 }
        Self.applyRates(properties, to: context)

        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "preset", properties.preset, 0)
        if properties.realTime { av_dict_set(&options, "tune", "zerolatency", 0) }
        if properties.averageBitRate == nil { av_dict_set(&options, "crf", "23", 0) }
        av_dict_set(&options, "forced-idr", "1", 0)
        var params = ["keyint=\(properties.maxKeyFrameInterval)"]
        if properties.exactKeyFrameInterval { params += ["min-keyint=\(properties.maxKeyFrameInterval)", "scenecut=0"] }
        if !properties.usesFrameReordering { params.append("bframes=0") }
        switch codec {
        case .h264:
            av_dict_set(&options, "profile", properties.profile.rawValue, 0)
            if let level = properties.level { av_dict_set(&options, "level", level, 0) }
            av_dict_set(&options, "x264-params", params.joined(separator: ":"), 0)
        case .h265:
            av_dict_set(&options, "profile", "main", 0)
            // Closed GOPs: every keyframe an IDR a player can start from; no log on stderr.
            params += ["open-gop=0", "log-level=error"]
            if let level = properties.level { params.append("level-idc=\(level)") }
            av_dict_set(&options, "x265-params", params.joined(separator: ":"), 0)
        }
        let code = avcodec_open2(context, encoder, &options)
        guard code >= 0 else { throw EncoderError(.encoderFailed, "cannot open \(name): \(FFmpegLog.lastError ?? ffmpegErrorText(code))") }
        guard context.pointee.extradata_size > 0, let extradata = context.pointee.extradata else {
            throw EncoderError(.encoderFailed, "\(name) gave no parameter sets")
        }
        let header = Array(UnsafeBufferPointer(start: extradata, count: Int(context.pointee.extradata_size)))
        parameterSets = AnnexB.units(in: header).map(Array.init).filter { codec.isParameterSet(nalType: codec.nalType($0[0])) }
        packet = av_packet_alloc()
        guard packet != nil else { throw EncoderError(.encoderFailed, "out of memory") }
    }

    deinit {
        avcodec_free_context(&context)
        av_packet_free(&packet)
    }

    private static func applyRates(_ properties: EncoderProperties, to context: UnsafeMutablePointer<AVCodecContext>) {
        context.pointee.bit_rate = Int64(properties.averageBitRate ?? 0)
        if let limit = properties.rateLimit {
            context.pointee.rc_max_rate = Int64(limit.bitsPerSecond)
            context.pointee.rc_buffer_size = Int32(clamping: limit.bufferBits)
        } else {
            context.pointee.rc_max_rate = 0
            context.pointee.rc_buffer_size = 0
        }
    }

    /// Encodes a picture of the encoder's size (converted to I420 when it is not) shown at
    /// `pts`; returns the packets that came out. An I420 picture is handed over without a
    /// copy: libavcodec holds a reference to the picture's storage until it is done.
    public func encode(_ input: VideoFrame, pts: Int64, forceKeyframe: Bool = false) throws -> [EncodedPacket] {
        guard context != nil else { throw EncoderError(.invalidState, "the encoder is closed") }
        guard input.width == width, input.height == height else {
            throw EncoderError(.invalidFrame, "a \(input.width)x\(input.height) frame given to a \(width)x\(height) session")
        }
        let picture = input.pixelFormat == .yuv420p ? input : try converter.convert(input, to: .yuv420p, quality: .accurate)
        guard picture.planes.count >= 3, let frame = av_frame_alloc() else { throw EncoderError(.encoderFailed, "out of memory") }
        var owned: UnsafeMutablePointer<AVFrame>? = frame
        defer { av_frame_free(&owned) }
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        try withUnsafeMutableBytes(of: &frame.pointee.buf) { buffers in
            try withUnsafeMutableBytes(of: &frame.pointee.data) { data in
                try withUnsafeMutableBytes(of: &frame.pointee.linesize) { strides in
                    for (index, plane) in picture.planes.prefix(3).enumerated() {
                        let bytes = UnsafeMutablePointer(mutating: plane.baseAddress.assumingMemoryBound(to: UInt8.self))
                        let retained = Unmanaged.passRetained(picture.owner as AnyObject).toOpaque()
                        guard let buffer = av_buffer_create(bytes, plane.bytesPerRow * plane.rowCount, releasePictureStorage, retained, 0) else {
                            Unmanaged<AnyObject>.fromOpaque(retained).release()
                            throw EncoderError(.encoderFailed, "out of memory")
                        }
                        buffers.storeBytes(of: buffer, toByteOffset: index * MemoryLayout<UnsafeMutablePointer<AVBufferRef>?>.stride,
                                           as: UnsafeMutablePointer<AVBufferRef>?.self)
                        data.storeBytes(of: bytes, toByteOffset: index * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride, as: UnsafeMutablePointer<UInt8>?.self)
                        strides.storeBytes(of: Int32(plane.bytesPerRow), toByteOffset: index * MemoryLayout<Int32>.stride, as: Int32.self)
                    }
                }
            }
        }
        frame.pointee.pts = pts
        frame.pointee.pict_type = forceKeyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        return try send(frame)
    }

    /// Encodes the frames still inside the encoder (look-ahead, reordering).
    public func flush() throws -> [EncodedPacket] { try send(nil) }

    private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws -> [EncodedPacket] {
        guard let context, let packet else { return [] }
        var code = avcodec_send_frame(context, frame)
        if code == FFmpegCode.endOfFile { return [] }
        guard code >= 0 else { throw EncoderError(.encoderFailed, "\(codec.rawValue) encoding failed: \(ffmpegErrorText(code))") }
        var packets: [EncodedPacket] = []
        while true {
            code = avcodec_receive_packet(context, packet)
            if code == FFmpegCode.again || code == FFmpegCode.endOfFile { return packets }
            guard code >= 0 else { throw EncoderError(.encoderFailed, "\(codec.rawValue) encoding failed: \(ffmpegErrorText(code))") }
            packets.append(EncodedPacket(annexB: Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))),
                                         pts: packet.pointee.pts, dts: packet.pointee.dts,
                                         isKeyframe: packet.pointee.flags & AV_PKT_FLAG_KEY != 0))
            av_packet_unref(packet)
        }
    }
}

/// Called by libavutil when the last reference to a picture plane handed to the encoder
/// goes: releases the Swift storage retained for it.
private func releasePictureStorage(_ opaque: UnsafeMutableRawPointer?, _ data: UnsafeMutablePointer<UInt8>?) {
    guard let opaque else { return }
    Unmanaged<AnyObject>.fromOpaque(opaque).release()
}

@available(*, unavailable, message: "use it from one thread at a time")
extension VideoEncoder: Sendable {}
