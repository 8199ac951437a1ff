import CFFmpeg
import ReelCore

/// Deinterlaces decoded pictures with libavfilter's `bwdif` (as mpv and FFmpeg's users
/// do): each picture the decoder gives goes in; what comes out is a picture per field
/// (or per frame), one picture late, because bwdif looks at the next one.
///
/// With ``DeinterlaceSetting/auto`` nothing is done until a picture flagged interlaced
/// comes; from then on bwdif runs with `deint=interlaced`, so that progressive pictures
/// in between pass untouched. Not `Sendable`: the thread that delivers the pictures uses it.
public final class Deinterlacer {
    private let setting: DeinterlaceSetting
    private let mode: DeinterlaceMode
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private var shape = ""
    /// Set once an interlaced picture came (auto), or at once (yes).
    private var active: Bool
    private var serial = Int.min
    /// The time base and duration of what went in, for the pictures that come out.
    private var inputTimeBase = Rational(1, 90_000)
    private var inputDuration: Int64 = 0

    /// - Parameters:
    ///   - setting: which pictures are deinterlaced.
    ///   - mode: a picture per field or per frame.
    public init(setting: DeinterlaceSetting, mode: DeinterlaceMode = .field) {
        self.setting = setting
        self.mode = mode
        active = setting == .yes
    }

    deinit { avfilter_graph_free(&graph) }

    /// The bwdif filter as FFmpeg's command line writes it, for the same pictures.
    public static func filter(mode: DeinterlaceMode, onlyInterlaced: Bool) -> String {
        "bwdif=mode=\(mode == .field ? "send_field" : "send_frame"):parity=auto:deint=\(onlyInterlaced ? "interlaced" : "all")"
    }

    /// The pictures to show for `frame`, of timeline `serial` (a new timeline, after a
    /// seek, starts bwdif again): none while bwdif waits for the next picture, one or two
    /// after. Pictures that do not come from FFmpeg's decoders pass as they are.
    public func push(_ frame: VideoFrame, serial: Int) throws -> [VideoFrame] {
        if serial != self.serial {
            restart()
            self.serial = serial
        }
        guard setting != .no, let input = (frame.owner as? FrameBox)?.frame else { return [frame] }
        if !active, input.pointee.interlaced_frame != 0 { active = true }
        guard active else { return [frame] }
        try prepare(for: frame)
        inputTimeBase = frame.timeBase
        inputDuration = frame.duration
        let code = av_buffersrc_add_frame_flags(source, input, Int32(AV_BUFFERSRC_FLAG_KEEP_REF))
        guard code >= 0 else { throw DecodeError(.other, code: code, detail: "deinterlacing: \(ffmpegErrorText(code))") }
        return try pictures(like: frame)
    }

    /// The pictures bwdif still holds, at the end of the stream of timeline `serial`.
    public func drain(serial: Int) throws -> [VideoFrame] {
        guard serial == self.serial, let source, graph != nil else { return [] }
        let code = av_buffersrc_add_frame_flags(source, nil, 0)
        guard code >= 0 else { return [] }
        return try pictures(like: nil)
    }

    /// Forgets what bwdif holds (a seek starts a new timeline); the next picture starts it again.
    private func restart() {
        avfilter_graph_free(&graph)
        (source, sink, shape) = (nil, nil, "")
    }

    /// Every picture the sink has now.
    private func pictures(like frame: VideoFrame?) throws -> [VideoFrame] {
        guard let sink else { return [] }
        let outputBase = Rational(av_buffersink_get_time_base(sink))
        var pictures: [VideoFrame] = []
        try FilterGraphWiring.drain(sink, what: "deinterlacing") { output, box in
            var picture = try VideoFrame(box: box, timeBase: outputBase)
            // A filter's picture keeps its decoder's best-effort time; its own is `pts`.
            picture.pts = output.pointee.pts == FFmpegCode.noPTS ? nil : output.pointee.pts
            picture.duration = outputDuration(in: outputBase)
            picture.isKeyframe = output.pointee.key_frame != 0
            if let frame { picture.sampleAspectRatio = frame.sampleAspectRatio }
            pictures.append(picture)
        }
        return pictures
    }

    /// A picture's duration in the output's time base: the input's, halved per field.
    private func outputDuration(in outputBase: Rational) -> Int64 {
        guard outputBase.isKnown, inputTimeBase.isKnown else { return 0 }
        let ticks = Double(inputDuration) * (inputTimeBase.doubleValue ?? 0) / (outputBase.doubleValue ?? 1)
        return Int64((ticks / (mode == .field ? 2 : 1)).rounded())
    }

    /// Builds the graph for pictures of `frame`'s size and format (again when they change).
    private func prepare(for frame: VideoFrame) throws {
        let base = frame.timeBase.isKnown ? frame.timeBase : Rational(1, 90_000)
        let shape = "\(frame.width)x\(frame.height) \(frame.pixelFormat) \(base.numerator)/\(base.denominator)"
        guard shape != self.shape else { return }
        avfilter_graph_free(&graph)
        let aspect = frame.sampleAspectRatio.isKnown ? frame.sampleAspectRatio : Rational(1, 1)
        let arguments = "video_size=\(frame.width)x\(frame.height):pix_fmt=\(frame.pixelFormat.rawValue)"
            + ":time_base=\(base.numerator)/\(base.denominator):pixel_aspect=\(aspect.numerator)/\(aspect.denominator)"
        (graph, source, sink) = try FilterGraphWiring.make(source: "buffer", arguments: arguments,
                                                           chain: Self.filter(mode: mode, onlyInterlaced: setting == .auto), what: "deinterlacing")
        self.shape = shape
    }
}
