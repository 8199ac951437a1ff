import CGStreamer
import ReelCore
import ReelFFmpeg

/// A GStreamer buffer that stays mapped for reading as long as a frame over it lives:
/// Reel's frames point into GStreamer's memory without a copy, as they point into FFmpeg's.
///
/// It holds the sample's buffer, never the sample: appsink hands out one sample object
/// again and again, and after a flush (a seek back to the start at the end) GStreamer
/// 1.22 writes the caps into it without first making it writable; a sample still held by
/// a frame on screen made that a `gst_sample_is_writable` CRITICAL.
final class GStreamerSample: StorageOwner, @unchecked Sendable {
    private let buffer: UnsafeMutablePointer<GstBuffer>
    let map: UnsafeMutablePointer<GstMapInfo>
    /// The buffer's time on the stream's timeline (see ``streamTime(of:in:)``).
    let pts: Int64?

    /// Maps `sample`'s buffer, with a reference of its own on it; the sample stays the caller's.
    private init(_ sample: OpaquePointer) throws(GStreamerError) {
        guard let buffer = gst_sample_get_buffer(sample) else { throw GStreamerError("a sample without a buffer") }
        map = .allocate(capacity: 1)
        guard gst_buffer_map(buffer, map, GST_MAP_READ) != 0 else {
            map.deallocate()
            throw GStreamerError("cannot map a buffer for reading")
        }
        self.buffer = gst_buffer_ref(buffer)
        pts = Self.streamTime(of: buffer, in: sample)
    }

    deinit {
        gst_buffer_unmap(buffer, map)
        map.deallocate()
        gst_buffer_unref(buffer)
    }

    /// GStreamer's nanoseconds.
    static let timeBase = Rational(1, 1_000_000_000)

    /// The buffer's time on the stream's timeline, the one FFmpeg reports: a buffer's own
    /// timestamp keeps the container's offsets (an MP4's edit list that hides a B-frame
    /// delay), which the sample's segment maps away.
    private static func streamTime(of buffer: UnsafeMutablePointer<GstBuffer>, in sample: OpaquePointer) -> Int64? {
        let pts = reel_gst_buffer_pts(buffer)
        guard pts != reel_gst_clock_time_none() else { return nil }
        guard let segment = gst_sample_get_segment(sample) else { return Int64(clamping: pts) }
        // The full form: after a seek, the picture on screen at the target starts before
        // the segment does, and its time is wanted all the same.
        var streamTime: guint64 = 0
        let sign = gst_segment_to_stream_time_full(segment, GST_FORMAT_TIME, pts, &streamTime)
        return sign == 0 ? nil : sign > 0 ? Int64(clamping: streamTime) : -Int64(clamping: streamTime)
    }

    /// An I420 or I420_10LE sample as a `yuv420p` or `yuv420p10le` frame over its buffer,
    /// with the colorimetry its caps name. Takes `sample` (its reference is released here).
    static func videoFrame(_ sample: OpaquePointer) throws(GStreamerError) -> VideoFrame {
        defer { gst_sample_unref(sample) }
        let owner = try GStreamerSample(sample)
        var info = GstVideoInfo()
        guard let caps = gst_sample_get_caps(sample), gst_video_info_from_caps(&info, caps) != 0 else { throw GStreamerError("a picture without its format") }
        let width = Int(reel_gst_video_info_width(&info)), height = Int(reel_gst_video_info_height(&info))
        let format = reel_gst_video_info_format(&info)
        let (pixelFormat, sampleBytes): (PixelFormat, Int)
        if format == GST_VIDEO_FORMAT_I420 {
            (pixelFormat, sampleBytes) = (.yuv420p, 1)
        } else if format == GST_VIDEO_FORMAT_I420_10LE {
            (pixelFormat, sampleBytes) = (.yuv420p10le, 2)
        } else {
            throw GStreamerError("a picture in a format Reel did not ask for")
        }
        let size = Int(owner.map.pointee.size)
        guard let base = owner.map.pointee.data, width > 0, height > 0 else { throw GStreamerError("an empty picture") }
        var planes: [PlaneView] = []
        for plane in 0..<3 {
            let rows = plane == 0 ? height : (height + 1) / 2
            let rowBytes = (plane == 0 ? width : (width + 1) / 2) * sampleBytes
            var offset = Int(reel_gst_video_info_plane_offset(&info, guint(plane)))
            var stride = Int(reel_gst_video_info_plane_stride(&info, guint(plane)))
            var metaOffset: gsize = 0, metaStride: gint = 0
            if reel_gst_buffer_video_meta_plane(owner.buffer, guint(plane), &metaOffset, &metaStride) != 0 {
                (offset, stride) = (Int(metaOffset), Int(metaStride))
            }
            // What the caps say must lie inside the buffer GStreamer gave.
            guard stride >= rowBytes, offset >= 0, offset + (rows - 1) * stride + rowBytes <= size else {
                throw GStreamerError("a picture's planes lie outside its buffer")
            }
            planes.append(PlaneView(baseAddress: UnsafeRawPointer(base + offset), bytesPerRow: stride, rowByteCount: rowBytes, rowCount: rows))
        }
        var color = ColorDescription()
        var matrix: guint = 2, transfer: guint = 2, primaries: guint = 2, range: guint = 0
        if reel_gst_caps_colorimetry(caps, &matrix, &transfer, &primaries, &range) != 0 {
            color = ColorDescription(codePoints: matrix, range: range, primaries: primaries, transfer: transfer)
        }
        let parN = Int(reel_gst_video_info_par_n(&info)), parD = Int(reel_gst_video_info_par_d(&info))
        let duration = reel_gst_buffer_duration(owner.buffer)
        var frame = VideoFrame(width: width, height: height, pixelFormat: pixelFormat, planes: planes, color: color,
                               sampleAspectRatio: parD > 0 ? Rational(parN, parD) : Rational(0, 1), pts: owner.pts,
                               duration: duration == reel_gst_clock_time_none() ? 0 : Int64(clamping: duration), timeBase: timeBase,
                               isKeyframe: reel_gst_buffer_is_keyframe(owner.buffer) != 0, owner: owner)
        var peak: gdouble = 0
        if reel_gst_caps_peak_luminance(caps, &peak) != 0 { frame.peakLuminance = peak }
        return frame
    }

    /// An interleaved F32LE sample as a `flt` audio frame over its buffer. Takes `sample`.
    static func audioFrame(_ sample: OpaquePointer) throws(GStreamerError) -> AudioFrame {
        defer { gst_sample_unref(sample) }
        let owner = try GStreamerSample(sample)
        var info = GstAudioInfo()
        guard let caps = gst_sample_get_caps(sample), gst_audio_info_from_caps(&info, caps) != 0 else { throw GStreamerError("sound without its format") }
        let channels = Int(reel_gst_audio_info_channels(&info)), bytesPerFrame = Int(reel_gst_audio_info_bpf(&info))
        guard let base = owner.map.pointee.data, channels > 0, bytesPerFrame == channels * 4 else { throw GStreamerError("sound in a format Reel did not ask for") }
        return AudioFrame(sampleFormat: .flt, sampleRate: Int(reel_gst_audio_info_rate(&info)), channelCount: channels,
                          channelLayout: channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels",
                          sampleCount: Int(owner.map.pointee.size) / bytesPerFrame, planes: [UnsafeRawPointer(base)],
                          pts: owner.pts, timeBase: timeBase, owner: owner)
    }
}
