import CFFmpeg
import ReelCore

/// A stream of an input carried into an output file as AAC, for audio the container
/// cannot take as it was encoded (PCM, Vorbis…): decoded, resampled to the encoder's
/// planar float in frames of its size (libavfilter), encoded by FFmpeg's own AAC encoder.
/// The input's sample rate and channel layout are kept when AAC takes them (else 48 kHz,
/// stereo), and so are its times, so the audio stays in sync with the video.
final class TranscodedAudioStream {
    let inputIndex: Int
    private let path: String
    private let decoder: Decoder
    private let inputTimeBase: AVRational
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private let output: UnsafeMutablePointer<AVStream>
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private var filtered: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// The decoded frames' signature the filter graph was made for.
    private var inputSignature = ""
    /// Bits per second per channel, as ffmpeg's own default for stereo (128 kb/s).
    static let bitRatePerChannel = 64_000

    /// Adds the output stream to `context`; nil when `demuxer` has no audio stream `index`.
    init?(transcoding index: Int, of demuxer: Demuxer, into context: UnsafeMutablePointer<AVFormatContext>) throws {
        path = String(cString: context.pointee.url)
        guard index >= 0, index < Int(demuxer.context.pointee.nb_streams), let input = demuxer.context.pointee.streams[index],
              input.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO else { return nil }
        inputIndex = index
        inputTimeBase = input.pointee.time_base
        decoder = try Decoder(demuxer: demuxer, streamIndex: index)
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_AAC), let encoder = avcodec_alloc_context3(codec) else {
            throw OutputError(path, "libavcodec has no AAC encoder")
        }
        self.encoder = encoder
        let parameters = input.pointee.codecpar.pointee
        let rate = Self.supportedRate(Int32(parameters.sample_rate), of: codec)
        encoder.pointee.sample_rate = rate
        encoder.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        encoder.pointee.time_base = AVRational(num: 1, den: rate)
        var layout = parameters.ch_layout
        if !Self.takes(layout, codec) || layout.order == AV_CHANNEL_ORDER_UNSPEC {
            // An unknown order of a channel count AAC takes is that count's usual layout.
            var usual = AVChannelLayout()
            av_channel_layout_default(&usual, layout.nb_channels)
            layout = Self.takes(usual, codec) ? usual : Self.stereo()
        }
        guard av_channel_layout_copy(&encoder.pointee.ch_layout, &layout) >= 0 else { throw OutputError(path, "out of memory") }
        encoder.pointee.bit_rate = Int64(Self.bitRatePerChannel) * Int64(encoder.pointee.ch_layout.nb_channels)
        if context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 { encoder.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        var code = avcodec_open2(encoder, codec, nil)
        guard code >= 0 else { throw OutputError(path, "cannot open the AAC encoder: \(FFmpegLog.lastError ?? ffmpegErrorText(code))") }
        guard let output = avformat_new_stream(context, nil) else { throw OutputError(path, "out of memory") }
        code = avcodec_parameters_from_context(output.pointee.codecpar, encoder)
        guard code >= 0 else { throw OutputError(path, ffmpegErrorText(code)) }
        output.pointee.time_base = encoder.pointee.time_base
        self.output = output
        filtered = av_frame_alloc()
        packet = av_packet_alloc()
        guard filtered != nil, packet != nil else { throw OutputError(path, "out of memory") }
    }

    deinit {
        avfilter_graph_free(&graph)
        avcodec_free_context(&encoder)
        av_frame_free(&filtered)
        av_packet_free(&packet)
    }

    /// Decodes a packet of the input stream and writes the AAC packets it completes;
    /// packets of other streams are ignored.
    func write(_ packet: Packet, to context: UnsafeMutablePointer<AVFormatContext>) throws {
        guard packet.streamIndex == inputIndex else { return }
        try decoder.decode(packet) { try filter($0, into: context) }
    }

    /// Writes what the decoder, the filter and the encoder still hold; before the trailer.
    func finish(into context: UnsafeMutablePointer<AVFormatContext>) throws {
        try decoder.drain { try filter($0, into: context) }
        if let source {
            _ = av_buffersrc_add_frame(source, nil)
            try encodeFiltered(into: context)
        }
        try encode(nil, into: context)
    }

    private func filter(_ decoded: DecodedFrame, into context: UnsafeMutablePointer<AVFormatContext>) throws {
        guard case .audio(let audio) = decoded, let frame = (audio.owner as? FrameBox)?.frame else { return }
        try configure(for: frame, flushingInto: context)
        // The graph counts in samples: the input's time, in ticks of its sample rate.
        if frame.pointee.pts != FFmpegCode.noPTS {
            frame.pointee.pts = av_rescale_q(frame.pointee.pts, inputTimeBase, AVRational(num: 1, den: frame.pointee.sample_rate))
        }
        let code = av_buffersrc_add_frame_flags(source, frame, Int32(AV_BUFFERSRC_FLAG_KEEP_REF))
        guard code >= 0 else { throw OutputError(path, "audio filter: \(ffmpegErrorText(code))") }
        try encodeFiltered(into: context)
    }

    private func encodeFiltered(into context: UnsafeMutablePointer<AVFormatContext>) throws {
        guard let sink, let filtered else { return }
        while av_buffersink_get_frame(sink, filtered) >= 0 {
            defer { av_frame_unref(filtered) }
            try encode(filtered, into: context)
        }
    }

    private func encode(_ frame: UnsafeMutablePointer<AVFrame>?, into context: UnsafeMutablePointer<AVFormatContext>) throws {
        guard let encoder, let packet else { return }
        var code = avcodec_send_frame(encoder, frame)
        guard code >= 0 || code == FFmpegCode.endOfFile else { throw OutputError(path, "AAC encoder: \(ffmpegErrorText(code))") }
        while true {
            code = avcodec_receive_packet(encoder, packet)
            if code == FFmpegCode.again || code == FFmpegCode.endOfFile { return }
            guard code >= 0 else { throw OutputError(path, "AAC encoder: \(ffmpegErrorText(code))") }
            defer { av_packet_unref(packet) }
            packet.pointee.stream_index = output.pointee.index
            av_packet_rescale_ts(packet, encoder.pointee.time_base, output.pointee.time_base)
            code = av_interleaved_write_frame(context, packet)
            guard code >= 0 else { throw OutputError(path, ffmpegErrorText(code)) }
        }
    }

    /// A graph from the decoded frames' format to the encoder's, in frames of its size; made
    /// again when the decoded format changes mid-stream.
    private func configure(for frame: UnsafeMutablePointer<AVFrame>, flushingInto context: UnsafeMutablePointer<AVFormatContext>) throws {
        guard let encoder else { return }
        let layout = Self.name(of: &frame.pointee.ch_layout)
        let signature = "\(frame.pointee.sample_rate) \(frame.pointee.format) \(layout)"
        guard signature != inputSignature else { return }
        if let source {
            // What the old graph holds goes out before the new one starts.
            _ = av_buffersrc_add_frame(source, nil)
            try encodeFiltered(into: context)
        }
        avfilter_graph_free(&graph)
        guard let newGraph = avfilter_graph_alloc() else { throw OutputError(path, "out of memory") }
        graph = newGraph
        let arguments = "time_base=1/\(frame.pointee.sample_rate):sample_rate=\(frame.pointee.sample_rate):sample_fmt=\(frame.pointee.format):channel_layout=\(layout)"
        var code = avfilter_graph_create_filter(&source, avfilter_get_by_name("abuffer"), "in", arguments, nil, newGraph)
        if code >= 0 { code = avfilter_graph_create_filter(&sink, avfilter_get_by_name("abuffersink"), "out", nil, nil, newGraph) }
        guard code >= 0, let source, let sink else { throw OutputError(path, "audio filter: \(ffmpegErrorText(code))") }
        let chain = "aresample=\(encoder.pointee.sample_rate),aformat=sample_fmts=fltp:channel_layouts=\(Self.name(of: &encoder.pointee.ch_layout))"
        code = FilterGraphWiring.connect(chain, in: newGraph, from: source, to: sink)
        guard code >= 0 else { throw OutputError(path, "audio filter '\(chain)': \(ffmpegErrorText(code))") }
        av_buffersink_set_frame_size(sink, UInt32(encoder.pointee.frame_size))
        inputSignature = signature
    }

    private static func stereo() -> AVChannelLayout {
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, 2)
        return layout
    }

    /// FFmpeg's name of a layout (`stereo`, `5.1(side)`), as filters take it.
    private static func name(of layout: UnsafePointer<AVChannelLayout>) -> String {
        var text = [CChar](repeating: 0, count: 128)
        av_channel_layout_describe(layout, &text, text.count)
        return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    private static func takes(_ layout: AVChannelLayout, _ codec: UnsafePointer<AVCodec>) -> Bool {
        guard var supported = codec.pointee.ch_layouts else { return layout.nb_channels <= 2 }
        var wanted = layout
        while supported.pointee.nb_channels != 0 {
            if av_channel_layout_compare(supported, &wanted) == 0 { return true }
            supported += 1
        }
        return false
    }

    private static func supportedRate(_ rate: Int32, of codec: UnsafePointer<AVCodec>) -> Int32 {
        guard var supported = codec.pointee.supported_samplerates else { return rate > 0 ? rate : 48_000 }
        while supported.pointee != 0 {
            if supported.pointee == rate { return rate }
            supported += 1
        }
        return 48_000
    }
}
