import CFFmpeg
import ReelCore

/// Turns decoded audio into what an output device plays: interleaved 32-bit float at the
/// device's rate and channel count (libswresample, through libavfilter's `aformat`),
/// optionally faster or slower at the same pitch (`atempo`).
///
/// Not `Sendable`: use it from one thread at a time, as FFmpeg's contexts require.
public final class AudioConverter {
    /// The format it converts to.
    public let device: AudioDeviceFormat
    /// Media seconds per device second: 0.5 to 2.
    public let tempo: Double
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private var inputSignature = ""
    private let output = av_frame_alloc()!

    /// A converter to `device`'s format, `tempo` times as fast (clamped to 0.5–2, pitch kept).
    public init(device: AudioDeviceFormat, tempo: Double = 1) {
        self.device = device
        self.tempo = min(max(tempo, 0.5), 2)
    }

    deinit {
        avfilter_graph_free(&graph)
        var pointer: UnsafeMutablePointer<AVFrame>? = output
        av_frame_free(&pointer)
    }

    /// Feeds one decoded frame (`nil` at the end of the stream).
    public func push(_ frame: AudioFrame?) throws {
        guard let frame else {
            if let source { _ = av_buffersrc_add_frame(source, nil) }
            return
        }
        try configure(for: frame)
        // A frame FFmpeg decoded is passed as it is; another engine's (GStreamer's) is
        // copied into one of FFmpeg's.
        var copy: UnsafeMutablePointer<AVFrame>?
        defer { av_frame_free(&copy) }
        if !(frame.owner is FrameBox) { copy = try Self.avFrame(copying: frame) }
        guard let avFrame = copy ?? (frame.owner as? FrameBox)?.frame else { throw DecodeError(.other, detail: "out of memory") }
        let code = av_buffersrc_add_frame_flags(source, avFrame, Int32(AV_BUFFERSRC_FLAG_KEEP_REF))
        if code < 0 { throw DecodeError(.other, code: code, detail: "audio filter: \(ffmpegErrorText(code))") }
    }

    /// An FFmpeg frame holding a copy of `frame`'s samples.
    static func avFrame(copying frame: AudioFrame) throws -> UnsafeMutablePointer<AVFrame> {
        guard let copy = av_frame_alloc() else { throw DecodeError(.other, detail: "out of memory") }
        copy.pointee.format = av_get_sample_fmt(frame.sampleFormat.rawValue).rawValue
        copy.pointee.nb_samples = Int32(frame.sampleCount)
        copy.pointee.sample_rate = Int32(frame.sampleRate)
        av_channel_layout_default(&copy.pointee.ch_layout, Int32(frame.channelCount))
        let planes = frame.sampleFormat.isPlanar ? frame.channelCount : 1
        let planeBytes = frame.sampleCount * frame.sampleFormat.bytesPerSample * (frame.sampleFormat.isPlanar ? 1 : frame.channelCount)
        guard av_frame_get_buffer(copy, 0) >= 0, frame.planes.count >= planes else {
            var failed: UnsafeMutablePointer<AVFrame>? = copy
            av_frame_free(&failed)
            throw DecodeError(.other, detail: "cannot copy sound of \(frame.channelCount) channels into FFmpeg's frame")
        }
        for plane in 0..<planes {
            guard let destination = copy.pointee.extended_data[plane] else { continue }
            destination.update(from: frame.planes[plane].assumingMemoryBound(to: UInt8.self), count: planeBytes)
        }
        return copy
    }

    /// Hands over every converted chunk available now: interleaved float samples.
    public func pull(_ body: (UnsafeRawBufferPointer, _ sampleCount: Int) -> Void) {
        guard let sink else { return }
        while av_buffersink_get_frame(sink, output) >= 0 {
            let count = Int(output.pointee.nb_samples)
            body(UnsafeRawBufferPointer(start: output.pointee.data.0, count: count * device.bytesPerFrame), count)
            av_frame_unref(output)
        }
    }

    /// Forgets what is buffered inside (after a seek).
    public func reset() {
        avfilter_graph_free(&graph)
        source = nil
        sink = nil
        inputSignature = ""
    }

    private func configure(for frame: AudioFrame) throws {
        let signature = "\(frame.sampleRate) \(frame.sampleFormat.rawValue) \(frame.channelCount) \(frame.channelLayout)"
        guard signature != inputSignature else { return }
        reset()
        guard let newGraph = avfilter_graph_alloc() else { throw DecodeError(.other, detail: "out of memory") }
        graph = newGraph
        let layout = frame.channelLayout.contains("channels") ? "channels=\(frame.channelCount)" : "channel_layout=\(frame.channelLayout)"
        let arguments = "time_base=1/\(frame.sampleRate):sample_rate=\(frame.sampleRate):sample_fmt=\(frame.sampleFormat.rawValue):\(layout)"
        var code = avfilter_graph_create_filter(&source, avfilter_get_by_name("abuffer"), "in", arguments, nil, newGraph)
        if code >= 0 { code = avfilter_graph_create_filter(&sink, avfilter_get_by_name("abuffersink"), "out", nil, nil, newGraph) }
        guard code >= 0, let source, let sink else { throw DecodeError(.other, code: code, detail: "audio filter: \(ffmpegErrorText(code))") }
        var chain = "aformat=sample_fmts=flt:sample_rates=\(device.sampleRate):channel_layouts=\(device.channels)c"
        if abs(tempo - 1) > 1e-6 { chain = "atempo=\(tempo)," + chain }
        code = FilterGraphWiring.connect(chain, in: newGraph, from: source, to: sink)
        guard code >= 0 else { throw DecodeError(.other, code: code, detail: "audio filter '\(chain)': \(ffmpegErrorText(code))") }
        inputSignature = signature
    }
}

@available(*, unavailable, message: "use it from one thread at a time")
extension AudioConverter: Sendable {}
