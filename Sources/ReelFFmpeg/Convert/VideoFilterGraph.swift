import CFFmpeg
import ReelCore

/// A libavfilter graph over video pictures of one shape: `buffer` → the graph's text
/// (`[in]…[out]`, one input and one output) → `buffersink`. Used where Reel measures
/// itself against FFmpeg's filters in one process.
///
/// Not `Sendable`: use it from one thread at a time, as FFmpeg's contexts require.
public final class VideoFilterGraph {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private var output = av_frame_alloc()

    /// - Parameters:
    ///   - description: filters from `[in]` to `[out]`, such as `[in]scale=640:360[out]`.
    ///   - threads: libavfilter's threads (1 for one core).
    public init(description: String, width: Int, height: Int, pixelFormat: PixelFormat, threads: Int = 1) throws {
        guard let graph = avfilter_graph_alloc() else { throw DecodeError(.other, detail: "out of memory") }
        self.graph = graph
        graph.pointee.nb_threads = Int32(threads)
        let arguments = "video_size=\(width)x\(height):pix_fmt=\(pixelFormat.rawValue):time_base=1/25:pixel_aspect=1/1"
        var code = avfilter_graph_create_filter(&source, avfilter_get_by_name("buffer"), "in", arguments, nil, graph)
        if code >= 0 { code = avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out", nil, nil, graph) }
        guard code >= 0, let source, let sink else { throw DecodeError(.other, code: code, detail: "video filter: \(ffmpegErrorText(code))") }
        code = FilterGraphWiring.connect(description, in: graph, from: source, to: sink)
        guard code >= 0 else { throw DecodeError(.other, code: code, detail: "video filter '\(description)': \(ffmpegErrorText(code))") }
    }

    deinit {
        avfilter_graph_free(&graph)
        av_frame_free(&output)
    }

    /// A reference-counted copy of `picture` to push (cheaply, by reference) many times.
    public final class Picture {
        fileprivate var frame = av_frame_alloc()
        deinit { av_frame_free(&frame) }
    }

    /// A copy of `buffer` as a picture the graph takes.
    public func picture(copying buffer: PixelBuffer) throws -> Picture {
        let picture = Picture()
        guard let frame = picture.frame else { throw DecodeError(.other, detail: "out of memory") }
        frame.pointee.format = av_get_pix_fmt(buffer.format.pixelFormat.rawValue).rawValue
        frame.pointee.width = Int32(buffer.width)
        frame.pointee.height = Int32(buffer.height)
        guard av_frame_get_buffer(frame, 64) >= 0 else { throw DecodeError(.other, detail: "out of memory") }
        let targets = withUnsafeBytes(of: frame.pointee.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
        let strides = withUnsafeBytes(of: frame.pointee.linesize) { Array($0.bindMemory(to: Int32.self)) }
        for (index, plane) in buffer.planes.enumerated() {
            guard let target = targets[index] else { continue }
            for row in 0..<plane.rowCount { (target + row * Int(strides[index])).update(from: plane.row(row), count: plane.rowByteCount) }
        }
        return picture
    }

    /// Filters one picture; `body` sees each picture the graph gives back (valid during the call).
    public func filter(_ picture: Picture, _ body: (UnsafePointer<AVFrame>) -> Void = { _ in }) throws {
        guard let input = av_frame_clone(picture.frame) else { throw DecodeError(.other, detail: "out of memory") }
        var owned: UnsafeMutablePointer<AVFrame>? = input
        defer { av_frame_free(&owned) }
        var code = av_buffersrc_add_frame_flags(source, input, 0)
        guard code >= 0 else { throw DecodeError(.other, code: code, detail: "video filter: \(ffmpegErrorText(code))") }
        while true {
            code = av_buffersink_get_frame(sink, output)
            if code == FFmpegCode.again || code == FFmpegCode.endOfFile { return }
            guard code >= 0, let output else { throw DecodeError(.other, code: code, detail: "video filter: \(ffmpegErrorText(code))") }
            body(output)
            av_frame_unref(output)
        }
    }
}

@available(*, unavailable, message: "use it from one thread at a time")
extension VideoFilterGraph: Sendable {}
