import CFFmpeg
import ReelCore

/// A libavcodec decoder for a subtitle stream. Text formats (SubRip, WebVTT, ASS/SSA, MOV
/// text…) come out as ASS dialogue lines, timed in milliseconds, with the script header they
/// refer to: what libass takes, as FFmpeg's `subtitles` filter feeds it. Picture formats
/// (PGS, DVB, VobSub) come out as paletted pictures.
///
/// Use from one thread at a time.
public final class SubtitleDecoder {
    /// The stream it decodes.
    public let streamIndex: Int
    /// FFmpeg's name of the format (`subrip`, `ass`, `webvtt`…).
    public let codecName: String
    /// Whether the format is text (``decode(_:)``) rather than pictures (``decodePicture(_:)``).
    public let isText: Bool
    /// The ASS script header the events refer to (for SubRip and WebVTT, FFmpeg's default
    /// style; for ASS, the file's own); empty for picture formats.
    public let header: String
    private let context: UnsafeMutablePointer<AVCodecContext>

    /// Opens a decoder for subtitle stream `streamIndex` of `demuxer`.
    public init(demuxer: Demuxer, streamIndex: Int) throws {
        guard let stream = demuxer.stream(at: streamIndex), let parameters = stream.pointee.codecpar,
              parameters.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE else { throw DecodeError(.noSuchStream(.subtitle)) }
        self.streamIndex = streamIndex
        codecName = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        isText = avcodec_descriptor_get(parameters.pointee.codec_id).map { $0.pointee.props & AV_CODEC_PROP_TEXT_SUB != 0 } ?? false
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else { throw DecodeError(.decoderNotFound, codec: codecName) }
        FFmpegLog.installIfNeeded()
        guard let context = avcodec_alloc_context3(codec) else { throw DecodeError(.openFailed, codec: codecName, detail: "out of memory") }
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        var code = avcodec_parameters_to_context(context, parameters)
        if code >= 0 {
            context.pointee.pkt_timebase = stream.pointee.time_base
            FFmpegLog.clearLastError()
            code = avcodec_open2(context, codec, nil)
        }
        guard code >= 0 else {
            avcodec_free_context(&owned)
            throw DecodeError(.openFailed, codec: codecName, code: code, detail: FFmpegLog.lastError ?? ffmpegErrorText(code))
        }
        self.context = context
        let headerSize = Int(context.pointee.subtitle_header_size)
        header = context.pointee.subtitle_header.map { String(decoding: UnsafeBufferPointer(start: $0, count: headerSize), as: UTF8.self) } ?? ""
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&pointer)
    }

    /// The events in one packet of this decoder's text stream; none for a damaged packet
    /// (as ffmpeg, decoding goes on) or one without a time.
    public func decode(_ packet: Packet) throws -> [TextSubtitleEvent] {
        try decodeSubtitle(packet) { subtitle, start in
            let duration = Int64(subtitle.end_display_time)
            return (0..<Int(subtitle.num_rects)).compactMap { index in
                subtitle.rects[index]?.pointee.ass.map { TextSubtitleEvent(dialogue: String(cString: $0), startMilliseconds: start, durationMilliseconds: duration) }
            }
        } ?? []
    }

    /// The picture in one packet of this decoder's picture stream (one with no rectangles
    /// clears the screen); nil when the packet completes none.
    public func decodePicture(_ packet: Packet) throws -> SubtitlePicture? {
        try decodeSubtitle(packet) { subtitle, start in
            let shownFrom = start + Int64(subtitle.start_display_time)
            // FFmpeg's "until the next one" is the largest end there is.
            let end = subtitle.end_display_time == UInt32.max ? nil : start + Int64(subtitle.end_display_time)
            var budget = Self.maxPicturePixels
            let rects = (0..<Int(subtitle.num_rects)).compactMap { index -> SubtitlePicture.Rect? in
                guard let rect = subtitle.rects[index]?.pointee, rect.type == SUBTITLE_BITMAP,
                      rect.w > 0, rect.h > 0, rect.w <= DecodeLimits.maxDimension, rect.h <= DecodeLimits.maxDimension,
                      let pixels = rect.data.0, let colors = rect.data.1 else { return nil }
                let (width, height) = (Int(rect.w), Int(rect.h))
                budget -= width * height
                guard budget >= 0 else { return nil }
                let stride = Int(rect.linesize.0)
                var indices = [UInt8](repeating: 0, count: width * height)
                indices.withUnsafeMutableBufferPointer { target in
                    for row in 0..<height { (target.baseAddress! + row * width).update(from: pixels + row * stride, count: width) }
                }
                let count = min(max(Int(rect.nb_colors), 0), 256)
                let palette = colors.withMemoryRebound(to: UInt32.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }
                return SubtitlePicture.Rect(x: Int(rect.x), y: Int(rect.y), width: width, height: height, indices: indices, palette: palette)
            }
            return SubtitlePicture(startMilliseconds: shownFrom, endMilliseconds: end, canvasWidth: Int(context.pointee.width),
                                   canvasHeight: Int(context.pointee.height), rects: rects)
        }
    }

    /// At most this many pixels a picture, a byte each: a 4K canvas's worth.
    static let maxPicturePixels = 4096 * 2160

    /// Decodes `packet` and hands the subtitle with its start (milliseconds) to `body`.
    private func decodeSubtitle<Result>(_ packet: Packet, _ body: (AVSubtitle, Int64) -> Result) throws -> Result? {
        precondition(packet.streamIndex == streamIndex, "packet of another stream")
        let avPacket = try (packet.owner as? PacketBox)?.packet ?? Decoder.makePacket(copying: packet)
        defer { if !(packet.owner is PacketBox) { var p: UnsafeMutablePointer<AVPacket>? = avPacket; av_packet_free(&p) } }
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        guard avcodec_decode_subtitle2(context, &subtitle, &got, avPacket) >= 0, got != 0 else { return nil }
        defer { avsubtitle_free(&subtitle) }
        guard subtitle.pts != FFmpegCode.noPTS else { return nil }
        let start = av_rescale_q(subtitle.pts, AVRational(num: 1, den: reel_av_time_base()), AVRational(num: 1, den: 1000))
        return body(subtitle, start)
    }

    /// Forgets a partly read event (after a seek).
    public func flush() { avcodec_flush_buffers(context) }
}

@available(*, unavailable, message: "use it from one thread at a time")
extension SubtitleDecoder: Sendable {}
