import CFFmpeg

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
}
