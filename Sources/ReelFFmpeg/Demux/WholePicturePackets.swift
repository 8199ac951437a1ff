import CFFmpeg
import Logging
import ReelCore

/// A live MPEG-TS input's H.264/H.265 video passed on a PES packet at a time, each the
/// whole picture it holds, instead of through FFmpeg's parser, which knows a picture has
/// ended only when the next one starts: on a live input every picture waited a frame
/// interval (33 ms at 30 fps) for the next. It helps where the sender writes each
/// picture's PES length (Reel's encoder, FFmpeg's with `omit_video_pes_length 0`): without
/// it the demuxer itself waits for the next packet's start.
///
/// The parser is told (`PARSER_FLAG_COMPLETE_FRAMES`) once the input is open; the picture
/// it held at that moment is flushed out and passed on in its turn, after the packets the
/// probe read. A packet that is not one whole access unit (a sender that splits pictures
/// across PES packets, or puts two in one) hands the stream back to the parser for the rest
/// of the run; that packet and the one before it reach the decoder as they came.
struct WholePicturePackets {
    /// Streams whose packets are taken whole, with their codecs.
    private var codecs: [Int: VideoCodec] = [:]
    /// Pictures the parsers held when the input was opened, each due before its stream's
    /// first packet that comes after it.
    private var held: [Packet] = []
    /// A packet read when a held picture had to go first.
    private var waiting: Packet?
    private let context: UnsafeMutablePointer<AVFormatContext>
    private static let logger = Logger(label: "reel.demux")

    /// Takes the video of `context`, an opened and probed live input, a PES packet at a
    /// time; nil when it is no MPEG-TS or has no parsed H.264/H.265 stream.
    init?(_ context: UnsafeMutablePointer<AVFormatContext>) {
        guard let format = context.pointee.iformat, String(cString: format.pointee.name) == "mpegts" else { return nil }
        self.context = context
        for index in 0..<Int(context.pointee.nb_streams) {
            guard let stream = context.pointee.streams[index], let parameters = stream.pointee.codecpar,
                  parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
                  let codec = Self.codec(parameters.pointee.codec_id),
                  let parser = av_stream_get_parser(stream) else { continue }
            if let picture = Self.flush(parser, of: stream, at: index) { held.append(picture) }
            parser.pointee.flags |= PARSER_FLAG_COMPLETE_FRAMES
            codecs[index] = codec
        }
        guard !codecs.isEmpty else { return nil }
    }

    private static func codec(_ id: AVCodecID) -> VideoCodec? {
        switch id {
        case AV_CODEC_ID_H264: .h264
        case AV_CODEC_ID_HEVC: .h265
        default: nil
        }
    }

    /// The picture `parser` holds, waiting for the next one's start: a parse of no bytes
    /// ends it (the parser's own flush at the end of an input).
    private static func flush(_ parser: UnsafeMutablePointer<AVCodecParserContext>, of stream: UnsafeMutablePointer<AVStream>, at index: Int) -> Packet? {
        var scratch = avcodec_alloc_context3(nil)
        defer { avcodec_free_context(&scratch) }
        guard let scratch, avcodec_parameters_to_context(scratch, stream.pointee.codecpar) >= 0 else { return nil }
        var output: UnsafeMutablePointer<UInt8>?
        var size: Int32 = 0
        av_parser_parse2(parser, scratch, &output, &size, nil, 0, FFmpegCode.noPTS, FFmpegCode.noPTS, 0)
        guard size > 0, let output, let packet = av_packet_alloc() else { return nil }
        let box = PacketBox(packet)
        guard av_new_packet(packet, size) >= 0 else { return nil }
        packet.pointee.data.update(from: output, count: Int(size))
        packet.pointee.stream_index = Int32(index)
        packet.pointee.pts = parser.pointee.pts
        packet.pointee.dts = parser.pointee.dts == FFmpegCode.noPTS ? parser.pointee.pts : parser.pointee.dts
        if parser.pointee.key_frame == 1 { packet.pointee.flags |= AV_PKT_FLAG_KEY }
        return Packet(avPacket: packet, of: stream, owner: box)
    }

    /// The next packet: a held picture when its turn has come, else what `read` gives.
    mutating func next(reading read: () throws -> Packet?) rethrows -> Packet? {
        if let packet = waiting {
            waiting = nil
            return checked(packet)
        }
        guard let packet = try read() else { return held.isEmpty ? nil : held.removeFirst() }
        if let index = held.firstIndex(where: { $0.streamIndex == packet.streamIndex }), Self.order(of: packet) > Self.order(of: held[index]) {
            waiting = packet
            return held.remove(at: index)
        }
        return checked(packet)
    }

    private static func order(of packet: Packet) -> Int64 { packet.dts ?? packet.pts ?? .max }

    /// `packet`, after handing its stream back to the parser if it is no whole picture.
    private mutating func checked(_ packet: Packet) -> Packet {
        guard let codec = codecs[packet.streamIndex], !codec.holdsOneAccessUnit(annexB: packet.data) else { return packet }
        codecs[packet.streamIndex] = nil
        if let stream = context.pointee.streams[packet.streamIndex], let parser = av_stream_get_parser(stream) {
            parser.pointee.flags &= ~PARSER_FLAG_COMPLETE_FRAMES
        }
        Self.logger.info("stream \(packet.streamIndex): a PES packet that is not one whole picture; its pictures now wait for the next one's start")
        return packet
    }
}
