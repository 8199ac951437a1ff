import CFFmpeg
import ReelCore

/// Turns HDR pictures (PQ as in HDR10, and HLG) into SDR BT.709 for an ordinary display,
/// through libavfilter's zscale and tonemap, the chain FFmpeg's users write for it:
/// linear light at 100 nits, BT.709 primaries, a tone curve, then the BT.709 transfer and
/// matrix in limited range, 8-bit 4:2:0.
///
/// Not `Sendable`: use it from one thread at a time (the decode thread).
public final class ToneMapper {
    /// The tone curve, as FFmpeg's `tonemap` filter names it.
    public enum Curve: String, Sendable, CaseIterable {
        /// Filmic, keeps highlight detail (mpv's default for HDR on SDR).
        case hable
        /// Keeps in-range colours exact and compresses only the brightest.
        case mobius
        /// Simple, a little flat.
        case reinhard
        /// Cuts off what the display cannot show.
        case clip
    }

    /// The curve every picture is mapped with.
    public let curve: Curve
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private var shape = ""

    /// A mapper with `curve`.
    public init(curve: Curve = .hable) {
        self.curve = curve
    }

    deinit { avfilter_graph_free(&graph) }

    /// Whether pictures described by `color` are HDR, and mapped.
    public static func maps(_ color: ColorDescription) -> Bool { color.transfer == .pq || color.transfer == .hlg }

    /// The filter chain, for FFmpeg's command line as for this mapper.
    public static func filters(_ curve: Curve) -> String {
        "zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=\(curve.rawValue):desat=0,zscale=t=bt709:m=bt709:r=tv,format=yuv420p"
    }

    /// `frame` mapped to SDR when it is HDR (a new frame, with its timing); otherwise
    /// `frame` itself.
    public func map(_ frame: VideoFrame) throws -> VideoFrame {
        guard Self.maps(frame.color) else { return frame }
        let input = try (frame.owner as? FrameBox) ?? Self.copy(frame)
        try prepare(for: frame)
        var code = av_buffersrc_add_frame_flags(source, input.frame, Int32(AV_BUFFERSRC_FLAG_KEEP_REF))
        guard code >= 0 else { throw DecodeError(.other, code: code, detail: "tone mapping: \(ffmpegErrorText(code))") }
        guard let output = av_frame_alloc() else { throw DecodeError(.other, detail: "out of memory") }
        let box = FrameBox(output)
        code = av_buffersink_get_frame(sink, output)
        guard code >= 0 else { throw DecodeError(.other, code: code, detail: "tone mapping: \(ffmpegErrorText(code))") }
        var mapped = try VideoFrame(box: box, timeBase: frame.timeBase)
        mapped.pts = frame.pts
        mapped.duration = frame.duration
        mapped.isKeyframe = frame.isKeyframe
        mapped.sampleAspectRatio = frame.sampleAspectRatio
        return mapped
    }

    /// `frame` (a picture no FFmpeg decoder made: GStreamer's) copied into an `AVFrame`
    /// with its colour description and peak, which zscale and tonemap read (a copy of each
    /// HDR picture: the filters take only `AVFrame`s).
    private static func copy(_ frame: VideoFrame) throws -> FrameBox {
        guard let copy = av_frame_alloc() else { throw DecodeError(.other, detail: "out of memory") }
        let box = FrameBox(copy)
        copy.pointee.format = av_get_pix_fmt(frame.pixelFormat.rawValue).rawValue
        copy.pointee.width = Int32(frame.width)
        copy.pointee.height = Int32(frame.height)
        guard copy.pointee.format >= 0, av_frame_get_buffer(copy, 0) >= 0 else {
            throw DecodeError(.other, detail: "tone mapping: cannot hold a \(frame.pixelFormat) picture")
        }
        let targets = withUnsafeBytes(of: copy.pointee.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
        let strides = withUnsafeBytes(of: copy.pointee.linesize) { Array($0.bindMemory(to: Int32.self)) }
        for (index, plane) in frame.planes.enumerated() {
            guard index < targets.count, let target = targets[index], Int(strides[index]) >= plane.rowByteCount else {
                throw DecodeError(.other, detail: "tone mapping: a \(frame.pixelFormat) picture with a plane too many")
            }
            for row in 0..<plane.rowCount {
                UnsafeMutableRawPointer(target + row * Int(strides[index])).copyMemory(from: plane.baseAddress + row * plane.bytesPerRow, byteCount: plane.rowByteCount)
            }
        }
        frame.color.describe(copy)
        // The peak the tonemap filter maps to white, as FFmpeg's decoders hand it over.
        if let peak = frame.peakLuminance, let level = av_content_light_metadata_create_side_data(copy) {
            level.pointee.MaxCLL = UInt32(min(max(peak.rounded(), 0), 65535))
        }
        return box
    }

    /// Builds the graph for pictures of `frame`'s size and format (again when they change).
    private func prepare(for frame: VideoFrame) throws {
        let shape = "\(frame.width)x\(frame.height) \(frame.pixelFormat)"
        guard shape != self.shape else { return }
        avfilter_graph_free(&graph)
        guard let graph = avfilter_graph_alloc() else { throw DecodeError(.other, detail: "out of memory") }
        self.graph = graph
        let arguments = "video_size=\(frame.width)x\(frame.height):pix_fmt=\(frame.pixelFormat.rawValue):time_base=1/90000:pixel_aspect=1/1"
        var code = avfilter_graph_create_filter(&source, avfilter_get_by_name("buffer"), "in", arguments, nil, graph)
        if code >= 0 { code = avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out", nil, nil, graph) }
        guard code >= 0, let source, let sink else { throw DecodeError(.other, code: code, detail: "tone mapping: \(ffmpegErrorText(code))") }
        code = FilterGraphWiring.connect(Self.filters(curve), in: graph, from: source, to: sink)
        guard code >= 0 else { throw DecodeError(.other, code: code, detail: "tone mapping (zscale, tonemap): \(ffmpegErrorText(code))") }
        self.shape = shape
    }
}

@available(*, unavailable, message: "use it from one thread at a time")
extension ToneMapper: Sendable {}
