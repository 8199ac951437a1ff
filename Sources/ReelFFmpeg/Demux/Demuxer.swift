import CFFmpeg
import Foundation
import ReelCore

/// An input opened by libavformat: a file, or any URL it supports (http(s), hls, rtmp,
/// rtsp, udp, an SDP file for rtp…). Reads packets one at a time.
///
/// Use from one thread at a time; ``interrupt`` may be used from any thread to cancel a
/// blocking open or read.
public final class Demuxer {
    /// The input's URL or path, as given.
    public let url: String
    /// Cancels or times out a blocking open or read, from any thread.
    public let interrupt: InterruptController
    /// What the input holds, filled in when it was opened.
    public let info: MediaInfo
    let context: UnsafeMutablePointer<AVFormatContext>
    /// A live MPEG-TS input's video taken a PES packet, a picture, at a time.
    private var wholePictures: WholePicturePackets?
    /// What a network input opens inside it (segments, reloads); the context calls into it
    /// until it is closed.
    private let nestedOpens: NestedOpens?
    /// The highest variant bit rate ``bestStream(of:)`` takes of an HLS master's.
    let maximumVariantBitrate: Int?

    /// Opens `url` and reads enough of it to describe its streams.
    ///
    /// - Parameter interrupt: lets another thread cancel this open while it blocks;
    ///   by default one is made with `options.timeout`.
    public init(url: String, options: DemuxOptions = DemuxOptions(), interrupt: InterruptController? = nil) throws {
        FFmpegLog.installIfNeeded()
        self.url = url
        let interrupt = interrupt ?? InterruptController(timeout: options.timeout)
        self.interrupt = interrupt
        try Self.checkLocalFile(url)
        var (context, nestedOpens) = try Self.open(url, options: options, interrupt: interrupt)
        // FLV (RTMP) makes its streams as their first packets come, and a server sends
        // video from the next keyframe on: a live probe can end before that (a group of
        // pictures longer than the probe). When the metadata says a picture is coming, the
        // input is opened again with 3 s of probing. (A second avformat_find_stream_info
        // on the same input crashed.)
        if Self.promisesMissingVideo(context), let probed = options.formatOptions["analyzeduration"].flatMap(Int.init), probed < 3_000_000 {
            var pointer: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&pointer)
            var longer = options
            longer.formatOptions["analyzeduration"] = "3000000"
            (context, nestedOpens) = try Self.open(url, options: longer, interrupt: interrupt)
        }
        self.context = context
        self.nestedOpens = nestedOpens
        maximumVariantBitrate = options.maximumVariantBitrate
        self.info = MediaInfo(formatContext: context, url: url)
        if options.wholePicturePackets { wholePictures = WholePicturePackets(context) }
    }

    /// Opens `url` and probes its streams.
    private static func open(_ url: String, options: DemuxOptions, interrupt: InterruptController) throws -> (UnsafeMutablePointer<AVFormatContext>, NestedOpens?) {
        guard var context = avformat_alloc_context() else { throw InputError(.other, operation: .open, url: url, detail: "out of memory") }
        context.pointee.interrupt_callback = interrupt.callback
        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        // The TLS options go to the input's own open; options given win.
        var formatOptions = options.tlsOptions.merging(options.formatOptions) { _, given in given }
        let isHTTP = ["http://", "https://"].contains { url.lowercased().hasPrefix($0) }
        let nestedOpens = isHTTP || options.livePlaylistReloads
            ? NestedOpens(installingOn: context, options: options.tlsOptions, reloadingPlaylists: options.livePlaylistReloads, interrupt: interrupt) : nil
        if options.livePlaylistReloads { formatOptions.merge(LivePlaylistReloads.formatOptions) { _, required in required } }
        for (key, value) in formatOptions { av_dict_set(&dictionary, key, value, 0) }
        if options.formatName == "sdp" || url.lowercased().hasSuffix(".sdp"), options.formatOptions["protocol_whitelist"] == nil {
            // An SDP file opens RTP sessions, which libavformat refuses by default.
            av_dict_set(&dictionary, "protocol_whitelist", "file,udp,rtp,srtp,crypto,data", 0)
        }
        var format: UnsafePointer<AVInputFormat>?
        if let name = options.formatName {
            format = av_find_input_format(name)
            guard format != nil else {
                avformat_free_context(context)
                throw InputError(.other, operation: .open, url: url, detail: "unknown container format '\(name)'")
            }
        }

        FFmpegLog.clearLastError()
        var maybeContext: UnsafeMutablePointer<AVFormatContext>? = context
        let openCode = interrupt.guarding { avformat_open_input(&maybeContext, url, format, &dictionary) }
        guard openCode >= 0, let opened = maybeContext else {
            // avformat_open_input frees the context on failure.
            throw error(openCode, operation: .open, url: url, interrupt: interrupt)
        }
        context = opened
        probeAGroupOfPicturesOfLiveFLV(context)
        // Probing reads `analyzeduration` of media, which a live input sends in real time.
        // Cut off, it reports success, but a protocol such as RTMP was left in the middle of
        // a message, and a later read fails on the rest ("RTMP packet size mismatch").
        let findCode = interrupt.guarding(input: context) { avformat_find_stream_info(context, nil) }
        if findCode < 0 || interrupt.interruptionReason != nil {
            avformat_close_input(&maybeContext)
            throw error(findCode < 0 ? findCode : FFmpegCode.exit, operation: .open, url: url, interrupt: interrupt)
        }
        guard context.pointee.nb_streams > 0 else {
            avformat_close_input(&maybeContext)
            throw InputError(.noStreams, operation: .open, url: url)
        }
        return (context, nestedOpens)
    }

    /// A live FLV input (RTMP) is probed for 1.5 s at least, without counting frames for
    /// its frame rate (its metadata gives it). A server sends a player its video from the
    /// next keyframe, so a shorter probe missed the video and the input was opened again,
    /// waiting for yet another keyframe (2.6 s from a publisher's return to the picture,
    /// measured). The longer bound costs nothing when it has sound: the FLV demuxer says
    /// its streams are all there once both have come, and the probe ends with the first
    /// keyframe.
    private static func probeAGroupOfPicturesOfLiveFLV(_ context: UnsafeMutablePointer<AVFormatContext>) {
        guard isFLV(context), context.pointee.max_analyze_duration > 0 else { return }
        context.pointee.max_analyze_duration = max(context.pointee.max_analyze_duration, 1_500_000)
        context.pointee.fps_probe_size = 0
    }

    private static func isFLV(_ context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        context.pointee.iformat.map { String(cString: $0.pointee.name) == "flv" } ?? false
    }

    /// An FLV input whose metadata promises a picture (`onMetaData`'s width, displayWidth
    /// or videocodecid) but that has no video stream yet.
    private static func promisesMissingVideo(_ context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        guard isFLV(context) else { return false }
        let hasVideo = (0..<Int(context.pointee.nb_streams)).contains { context.pointee.streams[$0]?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO }
        guard !hasVideo else { return false }
        let keys: [String] = ["width", "displayWidth", "videocodecid"]
        return keys.contains { key in av_dict_get(context.pointee.metadata, key, nil, 0) != nil }
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&pointer)
    }

    /// SRT has no end of stream but the sender closing the connection, which libsrt reports
    /// as a lost connection (EIO): that is the end of what was sent, as ffmpeg takes it.
    private func endsTheStream(_ code: Int32) -> Bool {
        code == -EIO && url.lowercased().hasPrefix("srt://") && !interrupt.isCancelled
    }

    /// Reads the next packet of any stream; `nil` at the end of the input (for SRT, the
    /// sender closing the connection).
    ///
    /// Throws ``InputError`` when the input is damaged or truncated, when the read
    /// timed out or was cancelled, or on a network error.
    public func readPacket() throws -> Packet? {
        guard wholePictures != nil else { return try readFromInput() }
        return try wholePictures?.next { try readFromInput() }
    }

    private func readFromInput() throws -> Packet? {
        guard let packet = av_packet_alloc() else { throw InputError(.other, operation: .read, url: url, detail: "out of memory") }
        let box = PacketBox(packet)
        FFmpegLog.clearLastError()
        let code = interrupt.guarding(input: context) { av_read_frame(context, packet) }
        if endsTheStream(code) { return nil }
        if code == FFmpegCode.endOfFile {
            if let pb = context.pointee.pb, pb.pointee.error < 0, pb.pointee.error != FFmpegCode.endOfFile, !endsTheStream(pb.pointee.error) {
                throw Self.error(pb.pointee.error, operation: .read, url: url, interrupt: interrupt)
            }
            // Demuxers meet a cut-off file as an early end, saying so only in the log
            // (mov: "partial file"): an end that came with an error is a truncation.
            if let complaint = FFmpegLog.lastError {
                throw InputError(.truncated, operation: .read, url: url, code: code, detail: complaint)
            }
            return nil
        }
        if code < 0 { throw Self.error(code, operation: .read, url: url, interrupt: interrupt) }
        let stream = context.pointee.streams[Int(packet.pointee.stream_index)]!
        var read = Packet(avPacket: packet, of: stream, owner: box)
        read.captureTime = Self.producerWallClock(of: packet)
        return read
    }

    /// The producer's wall clock that libavformat attaches (AV_PKT_DATA_PRFT; its RTP
    /// demuxer computes it from the sender's RTCP reports), in seconds since 1970.
    private static func producerWallClock(of packet: UnsafeMutablePointer<AVPacket>) -> Double? {
        var size = 0
        guard let data = av_packet_get_side_data(packet, AV_PKT_DATA_PRFT, &size), size >= MemoryLayout<AVProducerReferenceTime>.size else { return nil }
        let reference = UnsafeRawPointer(data).loadUnaligned(as: AVProducerReferenceTime.self)
        return reference.wallclock > 0 ? Double(reference.wallclock) / 1e6 : nil
    }

    /// Moves to the keyframe at or before `time` (in every stream). Flush the decoders after.
    public func seek(to time: MediaTime) throws {
        let target = time.ticks(in: Rational(1, Int(AV_TIME_BASE)), rounding: .down)
        FFmpegLog.clearLastError()
        let code = interrupt.guarding { av_seek_frame(context, -1, target, AVSEEK_FLAG_BACKWARD) }
        if code < 0 { throw Self.error(code, operation: .seek, url: url, interrupt: interrupt) }
    }

    /// Goes back to the input's first packet. A format whose timestamps may jump
    /// (`AVFMT_TS_DISCONT`: MPEG-TS) is rewound by bytes, as ffplay seeks in it: a seek by
    /// time to its start landed on its second keyframe.
    public func rewind() throws {
        guard let format = context.pointee.iformat, format.pointee.flags & AVFMT_TS_DISCONT != 0,
              format.pointee.flags & AVFMT_NO_BYTE_SEEK == 0 else {
            try seek(to: MediaTime(seconds: Double(startTimeMicroseconds ?? 0) / 1e6))
            return
        }
        FFmpegLog.clearLastError()
        let code = interrupt.guarding { av_seek_frame(context, -1, 0, AVSEEK_FLAG_BYTE) }
        if code < 0 { throw Self.error(code, operation: .seek, url: url, interrupt: interrupt) }
    }

    /// The stream libavformat judges best of `type` (`av_find_best_stream`); of an HLS
    /// master playlist's variants, the highest's (within `DemuxOptions.maximumVariantBitrate`).
    public func bestStream(of type: MediaType) -> Int? {
        if let variant = highestVariantStream(of: type) { return variant }
        let code = av_find_best_stream(context, type.ffmpegType, -1, -1, nil, 0)
        return code >= 0 ? Int(code) : nil
    }

    /// The container's start time in `AV_TIME_BASE` (microseconds), if known.
    public var startTimeMicroseconds: Int64? {
        context.pointee.start_time == FFmpegCode.noPTS ? nil : context.pointee.start_time
    }

    func stream(at index: Int) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, index < Int(context.pointee.nb_streams) else { return nil }
        return context.pointee.streams[index]
    }

    private static func checkLocalFile(_ url: String) throws {
        let path: String
        // `pipe:N` is FFmpeg's name for an open descriptor (standard input: `pipe:0`).
        if url.hasPrefix("file:") { path = String(url.dropFirst(5)) } else if !url.contains("://") && !url.hasPrefix("pipe:") { path = url } else { return }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw InputError(errno == EACCES ? .permissionDenied : .notFound, operation: .open, url: url)
        }
        if status.st_mode & S_IFMT == S_IFREG && status.st_size == 0 {
            throw InputError(.emptyInput, operation: .open, url: url)
        }
    }

    static func error(_ code: Int32, operation: InputError.Operation, url: String, interrupt: InterruptController) -> InputError {
        if let refused = FFmpegLog.lastCertificateFailure, interrupt.interruptionReason != .cancelled {
            return InputError(.untrustedCertificate, operation: operation, url: url, code: code, detail: refused)
        }
        let reason = InputError.Reason(ffmpegCode: code, interrupt: interrupt)
        var detail = FFmpegLog.lastError ?? ffmpegErrorText(code)
        if case .timedOut = reason { detail = "" }
        if reason == .cancelled { detail = "" }
        // libsrt tells why a listener refused a caller only in its own log: say what it usually is.
        if operation == .open, code == -EIO, url.lowercased().hasPrefix("srt://") {
            detail = "the SRT peer refused the connection: a wrong or missing passphrase, or a stream ID it does not serve"
        }
        return InputError(reason, operation: operation, url: url, code: code, detail: detail)
    }
}

/// Owns an `AVPacket` that a ``Packet`` points into.
final class PacketBox: StorageOwner, @unchecked Sendable {
    let packet: UnsafeMutablePointer<AVPacket>
    init(_ packet: UnsafeMutablePointer<AVPacket>) { self.packet = packet }
    deinit {
        var pointer: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&pointer)
    }
}

extension Packet {
    /// A packet of `stream` over `packet`'s bytes, which `owner` keeps.
    init(avPacket packet: UnsafeMutablePointer<AVPacket>, of stream: UnsafeMutablePointer<AVStream>, owner: PacketBox) {
        self.init(streamIndex: Int(packet.pointee.stream_index),
                  pts: packet.pointee.pts == FFmpegCode.noPTS ? nil : packet.pointee.pts,
                  dts: packet.pointee.dts == FFmpegCode.noPTS ? nil : packet.pointee.dts,
                  duration: packet.pointee.duration,
                  timeBase: Rational(stream.pointee.time_base),
                  isKeyframe: packet.pointee.flags & AV_PKT_FLAG_KEY != 0,
                  isCorrupt: packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0,
                  data: UnsafeRawBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)),
                  owner: owner)
    }
}

extension Rational {
    init(_ value: AVRational) { self.init(Int(value.num), Int(value.den)) }
}

extension MediaType {
    init(_ type: AVMediaType) {
        switch type {
        case AVMEDIA_TYPE_VIDEO: self = .video
        case AVMEDIA_TYPE_AUDIO: self = .audio
        case AVMEDIA_TYPE_SUBTITLE: self = .subtitle
        case AVMEDIA_TYPE_DATA: self = .data
        case AVMEDIA_TYPE_ATTACHMENT: self = .attachment
        default: self = .unknown
        }
    }

    var ffmpegType: AVMediaType {
        switch self {
        case .video: AVMEDIA_TYPE_VIDEO
        case .audio: AVMEDIA_TYPE_AUDIO
        case .subtitle: AVMEDIA_TYPE_SUBTITLE
        case .data: AVMEDIA_TYPE_DATA
        case .attachment: AVMEDIA_TYPE_ATTACHMENT
        case .unknown: AVMEDIA_TYPE_UNKNOWN
        }
    }
}

@available(*, unavailable, message: "use it from one thread at a time")
extension Demuxer: Sendable {}
