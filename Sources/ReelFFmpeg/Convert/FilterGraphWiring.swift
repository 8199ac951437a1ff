import CFFmpeg
import ReelCore

/// Connects a filter description between a graph's `in` source and `out` sink, and
/// configures the graph: what every libavfilter user here does once its ends exist.
enum FilterGraphWiring {
    /// The libavfilter status code (negative on failure).
    static func connect(_ description: String, in graph: UnsafeMutablePointer<AVFilterGraph>,
                        from source: UnsafeMutablePointer<AVFilterContext>, to sink: UnsafeMutablePointer<AVFilterContext>) -> Int32 {
        var outputs = avfilter_inout_alloc(), inputs = avfilter_inout_alloc()
        defer { avfilter_inout_free(&outputs); avfilter_inout_free(&inputs) }
        outputs?.pointee.name = av_strdup("in")
        outputs?.pointee.filter_ctx = source
        inputs?.pointee.name = av_strdup("out")
        inputs?.pointee.filter_ctx = sink
        let code = avfilter_graph_parse_ptr(graph, description, &inputs, &outputs, nil)
        return code >= 0 ? avfilter_graph_config(graph, nil) : code
    }

    /// A single-threaded graph from a `buffer` or `abuffer` source made with `arguments`
    /// through `chain` to a sink; errors name `what` it is for.
    static func make(source kind: String, arguments: String, chain: String, what: String) throws
        -> (graph: UnsafeMutablePointer<AVFilterGraph>, source: UnsafeMutablePointer<AVFilterContext>, sink: UnsafeMutablePointer<AVFilterContext>) {
        guard var graph = Optional(avfilter_graph_alloc()), let made = graph else { throw DecodeError(.other, detail: "out of memory") }
        made.pointee.nb_threads = 1
        var source: UnsafeMutablePointer<AVFilterContext>?, sink: UnsafeMutablePointer<AVFilterContext>?
        var code = avfilter_graph_create_filter(&source, avfilter_get_by_name(kind), "in", arguments, nil, made)
        if code >= 0 { code = avfilter_graph_create_filter(&sink, avfilter_get_by_name(kind == "abuffer" ? "abuffersink" : "buffersink"), "out", nil, nil, made) }
        if code >= 0, let source, let sink { code = connect(chain, in: made, from: source, to: sink) }
        guard code >= 0, let source, let sink else {
            avfilter_graph_free(&graph)
            throw DecodeError(.other, code: code, detail: "\(what) '\(chain)': \(ffmpegErrorText(code))")
        }
        return (made, source, sink)
    }

    /// Every frame `sink` has now, each handed to `body` in a frame of its own (a box that
    /// frees it); stops at "again" and at the end.
    static func drain(_ sink: UnsafeMutablePointer<AVFilterContext>, what: String, _ body: (UnsafeMutablePointer<AVFrame>, FrameBox) throws -> Void) throws {
        while true {
            guard let output = av_frame_alloc() else { throw DecodeError(.other, detail: "out of memory") }
            let box = FrameBox(output)
            let code = av_buffersink_get_frame(sink, output)
            if code == FFmpegCode.again || code == FFmpegCode.endOfFile { return }
            guard code >= 0 else { throw DecodeError(.other, code: code, detail: "\(what): \(ffmpegErrorText(code))") }
            try body(output, box)
        }
    }
}
