import CFFmpeg
import ReelCore

/// A libavcodec decoder for a text subtitle stream (SubRip, WebVTT, ASS/SSA, MOV text…):
/// each packet comes out as ASS dialogue lines, timed in milliseconds, with the script
/// header they refer to: what libass takes, as FFmpeg's `subtitles` filter feeds it.
///
/// Use from one thread at a time.
public final class SubtitleDecoder {
    /// The stream it decodes.
    public let streamIndex: Int
    /// FFmpeg's name of the format (`subrip`, `ass`, `webvtt`…).
    public let codecName: String
    /// The ASS script header the events refer to (for SubRip and WebVTT, FFmpeg's default
    /// style; for ASS, the file's own).
    public let header: String
    private let context: UnsafeMutablePointer<AVCodecContext>

    /// Opens a decoder for text subtitle stream `streamIndex` of `demuxer`.
    public init(demuxer: Demuxer, streamIndex: Int) throws {
        guard let stream = demuxer.stream(at: streamIndex), let parameters = stream.pointee.codecpar,
              parameters.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE else { throw DecodeError(.noSuchStream(.subtitle)) }
        self.streamIndex = streamIndex
        codecName = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        guard let descriptor = avcodec_descriptor_get(parameters.pointee.codec_id),
              descriptor.pointee.props & AV_CODEC_PROP_TEXT_SUB != 0 else {
            throw DecodeError(.decoderNotFound, codec: codecName, detail: "picture subtitles are not drawn yet")
        }
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

    /// The events in one packet of this decoder's stream; none for a damaged packet (as
    /// ffmpeg, decoding goes on) or one without a time.
    public func decode(_ packet: Packet) throws -> [TextSubtitleEvent] {
        precondition(packet.streamIndex == streamIndex, "packet of another stream")
        let avPacket = try (packet.owner as? PacketBox)?.packet ?? Decoder.makePacket(copying: packet)
        defer { if !(packet.owner is PacketBox) { var p: UnsafeMutablePointer<AVPacket>? = avPacket; av_packet_free(&p) } }
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        guard avcodec_decode_subtitle2(context, &subtitle, &got, avPacket) >= 0, got != 0 else { return [] }
        defer { avsubtitle_free(&subtitle) }
        guard subtitle.pts != FFmpegCode.noPTS else { return [] }
        let start = av_rescale_q(subtitle.pts, AVRational(num: 1, den: reel_av_time_base()), AVRational(num: 1, den: 1000))
        let duration = Int64(subtitle.end_display_time)
        return (0..<Int(subtitle.num_rects)).compactMap { index in
            subtitle.rects[index]?.pointee.ass.map { TextSubtitleEvent(dialogue: String(cString: $0), startMilliseconds: start, durationMilliseconds: duration) }
        }
    }

    /// Forgets a partly read event (after a seek).
    public func flush() { avcodec_flush_buffers(context) }
}

@available(*, unavailable, message: "use it from one thread at a time")
extension SubtitleDecoder: Sendable {}
