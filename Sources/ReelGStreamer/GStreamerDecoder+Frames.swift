import CGStreamer
import Foundation
import ReelCore

// Pulling decoded pictures and sound from the appsinks, and their formats.
extension GStreamerDecoder {
    /// The input's duration in seconds, when GStreamer knows it.
    public var duration: Double? {
        var nanoseconds: gint64 = 0
        guard gst_element_query_duration(pipeline, GST_FORMAT_TIME, &nanoseconds) != 0, nanoseconds >= 0 else { return nil }
        return Double(nanoseconds) / 1e9
    }

    /// The next picture, or nil at the end of the stream; throws GStreamer's error, or
    /// when nothing comes within `timeout` seconds.
    public func nextVideoFrame(timeout: Double = 15) throws(GStreamerError) -> VideoFrame? {
        try Self.frameOrEnd(pollVideoFrame(waiting: timeout), timeout: timeout)
    }

    /// The next run of samples, or nil at the end of the stream.
    public func nextAudioFrame(timeout: Double = 15) throws(GStreamerError) -> AudioFrame? {
        try Self.frameOrEnd(pollAudioFrame(waiting: timeout), timeout: timeout)
    }

    private static func frameOrEnd<Frame>(_ polled: Polled<Frame>, timeout: Double) throws(GStreamerError) -> Frame? {
        switch polled {
        case .frame(let frame): return frame
        case .end: return nil
        case .nothingYet: throw GStreamerError("nothing decoded within \(MediaTime.formatSeconds(timeout)) s", kind: .timedOut)
        }
    }

    /// What a bounded wait at a stream's sink brought.
    public enum Polled<Frame> {
        /// The next frame.
        case frame(Frame)
        /// The stream's end (until a seek).
        case end
        /// Nothing within the wait.
        case nothingYet
    }

    /// The next picture if one comes within `seconds`: a player's thread waits in short
    /// steps, to see seeks and its end between them.
    public func pollVideoFrame(waiting seconds: Double) throws(GStreamerError) -> Polled<VideoFrame> {
        switch try poll(lock.withLock({ videoSink }), waiting: seconds) {
        case .frame(let sample): .frame(try GStreamerSample.videoFrame(sample))
        case .end: .end
        case .nothingYet: .nothingYet
        }
    }

    /// The next run of samples if one comes within `seconds`.
    public func pollAudioFrame(waiting seconds: Double) throws(GStreamerError) -> Polled<AudioFrame> {
        switch try poll(lock.withLock({ audioSink }), waiting: seconds) {
        case .frame(let sample): .frame(try GStreamerSample.audioFrame(sample))
        case .end: .end
        case .nothingYet: .nothingYet
        }
    }

    private func poll(_ sink: UnsafeMutablePointer<GstElement>?, waiting seconds: Double) throws(GStreamerError) -> Polled<OpaquePointer> {
        guard let sink else { throw GStreamerError("the stream is not decoded") }
        let appSink = reel_gst_app_sink(sink)
        if let sample = gst_app_sink_try_pull_sample(appSink, GstClockTime(max(seconds, 0) * 1e9)) { return .frame(sample) }
        try checkBus()
        return gst_app_sink_is_eos(appSink) != 0 ? .end : .nothingYet
    }

    /// The format of the pictures or sound a stream's sink receives, once open.
    private func sinkCaps(_ sink: UnsafeMutablePointer<GstElement>?) -> UnsafeMutablePointer<GstCaps>? {
        guard let sink, let pad = gst_element_get_static_pad(sink, "sink") else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        return gst_pad_get_current_caps(pad)
    }

    /// The pictures' size and rate, once open (nil without video).
    public var videoFormat: (width: Int, height: Int, frameRate: Rational)? {
        guard let caps = sinkCaps(lock.withLock({ videoSink })) else { return nil }
        defer { gst_caps_unref(caps) }
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0 else { return nil }
        return (Int(reel_gst_video_info_width(&info)), Int(reel_gst_video_info_height(&info)),
                Rational(Int(reel_gst_video_info_fps_n(&info)), Int(max(reel_gst_video_info_fps_d(&info), 1))))
    }

    /// The sound's rate and channels, once open (nil without audio).
    public var audioFormat: (sampleRate: Int, channels: Int)? {
        guard let caps = sinkCaps(lock.withLock({ audioSink })) else { return nil }
        defer { gst_caps_unref(caps) }
        var info = GstAudioInfo()
        guard gst_audio_info_from_caps(&info, caps) != 0 else { return nil }
        return (Int(reel_gst_audio_info_rate(&info)), Int(reel_gst_audio_info_channels(&info)))
    }
}
