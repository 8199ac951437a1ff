import CFFmpeg
import ReelCore

/// A stream of an input carried into an output file packet by packet (audio kept as it
/// was encoded).
struct CopiedStream {
    let inputIndex: Int
    private let output: UnsafeMutablePointer<AVStream>
    private let inputTimeBase: AVRational

    /// Adds the output stream to `context`; nil when `demuxer` has no stream `index`.
    init?(copying index: Int, of demuxer: Demuxer, into context: UnsafeMutablePointer<AVFormatContext>) throws {
        guard index >= 0, index < Int(demuxer.context.pointee.nb_streams), let input = demuxer.context.pointee.streams[index] else { return nil }
        guard let output = avformat_new_stream(context, nil) else { throw OutputError(String(cString: context.pointee.url), "out of memory") }
        avcodec_parameters_copy(output.pointee.codecpar, input.pointee.codecpar)
        output.pointee.codecpar.pointee.codec_tag = 0
        output.pointee.time_base = input.pointee.time_base
        self.output = output
        inputTimeBase = input.pointee.time_base
        inputIndex = index
    }

    /// Writes a packet of the input stream, its timestamps carried over (less `shift`
    /// microseconds); packets of other streams are ignored.
    func write(_ packet: Packet, to context: UnsafeMutablePointer<AVFormatContext>, shift: Int64 = 0) throws {
        guard packet.streamIndex == inputIndex else { return }
        // A packet made in Swift (kept by a timeshift) is copied into one of FFmpeg's.
        let made: UnsafeMutablePointer<AVPacket>? = if let box = packet.owner as? PacketBox { av_packet_clone(box.packet) } else { try Decoder.makePacket(copying: packet) }
        guard let clone = made else { return }
        var owned: UnsafeMutablePointer<AVPacket>? = clone
        defer { av_packet_free(&owned) }
        // The packet's times as given (an export moves them on), not its FFmpeg packet's.
        clone.pointee.pts = packet.pts ?? FFmpegCode.noPTS
        clone.pointee.dts = packet.dts ?? FFmpegCode.noPTS
        if shift != 0 {
            let ticks = av_rescale_q(shift, AVRational(num: 1, den: 1_000_000), inputTimeBase)
            if clone.pointee.pts != FFmpegCode.noPTS { clone.pointee.pts -= ticks }
            if clone.pointee.dts != FFmpegCode.noPTS { clone.pointee.dts -= ticks }
        }
        clone.pointee.stream_index = output.pointee.index
        av_packet_rescale_ts(clone, inputTimeBase, output.pointee.time_base)
        clone.pointee.pos = -1
        let code = av_interleaved_write_frame(context, clone)
        guard code >= 0 else { throw OutputError(String(cString: context.pointee.url), ffmpegErrorText(code)) }
    }
}
