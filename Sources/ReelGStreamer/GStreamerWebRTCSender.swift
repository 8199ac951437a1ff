import CGStreamer
import Foundation
import ReelCore

/// Sends an H.264 stream, and sound as Opus, to a WebRTC peer (WHIP) through GStreamer's
/// `webrtcbin`: encoded samples enter an `appsrc`, `rtph264pay` packetizes them (parameter
/// sets before every keyframe); the sound enters another as float samples and `opusenc`
/// encodes it; `webrtcbin` sends both send-only over ICE, DTLS and SRTP, with RTCP and
/// retransmissions (NACK) where the peer takes them. A peer's keyframe request (PLI, FIR)
/// comes back as ``takeKeyframeRequest()``, for the encoder.
///
/// Both streams are timed from the media times given, on one timeline whose zero is the
/// first picture, sent at the pipeline's running time of then: RTP timestamps and sender
/// reports keep picture and sound together however the two arrive.
///
/// The open makes the offer, exchanges it through the signalling, and waits until media can
/// flow (ICE and DTLS connected): samples sent after it are not lost to the handshake.
public final class GStreamerWebRTCSender: @unchecked Sendable {
    private let pipeline: UnsafeMutablePointer<GstElement>
    private let bus: UnsafeMutablePointer<GstBus>
    private let webrtc: UnsafeMutablePointer<GstElement>
    private let source: UnsafeMutablePointer<GstElement>
    private let audioSource: UnsafeMutablePointer<GstElement>?
    private let candidates: WebRTCCandidates
    /// The stream's `profile-level-id`, from its sequence parameter set.
    private let profileLevel: String
    private let lock = NSLock()
    private var keyframeRequested = false
    private var finished = false
    /// The media time of the first picture sent and the running time it was sent at.
    private var timeline: (origin: Double, base: GstClockTime)?

    /// The payload types offered: H.264 video, Opus sound.
    static let payloadType = 96
    static let audioPayloadType = 111
    /// The sound ``send(audio:frames:at:)`` takes: interleaved 32-bit float stereo at 48 kHz.
    public static let audioFormat = (sampleRate: 48_000, channels: 2)

    /// Sends samples of `format` (H.264) at `frameRate`, and sound when `withAudio`, to the
    /// peer `signalling` reaches; waits up to `timeout` seconds for the connection. Throws
    /// the signalling's own error (the server's refusal) as it is, and GStreamer's as a
    /// ``GStreamerError``.
    public init(signalling: WebRTCSignalling, format: VideoFormatDescription, frameRate: Rational, withAudio: Bool = false, timeout: Double = 15) throws {
        _ = GStreamer.initialised
        guard format.codec == .h264, let sps = format.parameterSets.first, sps.count >= 4 else {
            throw GStreamerError("WebRTC publishing sends H.264 (with its parameter sets)", kind: .other)
        }
        candidates = WebRTCCandidates(signalling: signalling)
        var failure: UnsafeMutablePointer<GError>?
        let (rate, channels) = Self.audioFormat
        // h264parse gives the caps their profile and level, which rtph264pay matches with
        // what was negotiated, and puts the parameter sets in front of every keyframe
        // (rtph264pay's own config-interval sends them after it, with the same timestamp).
        let description = "appsrc name=video is-live=true format=time ! h264parse config-interval=-1"
            + " ! rtph264pay pt=\(Self.payloadType) aggregate-mode=zero-latency mtu=1200"
            + " ! capsfilter name=payloaded caps=application/x-rtp,media=video,encoding-name=H264,payload=\(Self.payloadType),clock-rate=90000"
            + (withAudio ? " appsrc name=audio is-live=true format=time caps=audio/x-raw,format=F32LE,layout=interleaved,rate=\(rate),channels=\(channels)"
                + " ! audioconvert ! opusenc ! rtpopuspay pt=\(Self.audioPayloadType)"
                + " ! capsfilter name=payloadedAudio caps=application/x-rtp,media=audio,encoding-name=OPUS,payload=\(Self.audioPayloadType),clock-rate=48000" : "")
            + " webrtcbin name=webrtc bundle-policy=max-bundle"
        guard let pipeline = gst_parse_launch(description, &failure) else {
            defer { if let failure { g_error_free(failure) } }
            throw GStreamerError("cannot make the WebRTC pipeline: \(failure.map { String(cString: $0.pointee.message) } ?? "no reason given")",
                                 kind: .missingPlugin)
        }
        if let failure { g_error_free(failure) }
        let bin = reel_gst_bin(pipeline)
        guard let bus = gst_element_get_bus(pipeline), let webrtc = gst_bin_get_by_name(bin, "webrtc"), let source = gst_bin_get_by_name(bin, "video") else {
            gst_object_unref(UnsafeMutableRawPointer(pipeline))
            throw GStreamerError("the WebRTC pipeline lacks its elements")
        }
        (self.pipeline, self.bus) = (pipeline, bus)
        audioSource = withAudio ? gst_bin_get_by_name(bin, "audio") : nil
        if let audioSource { gst_object_unref(UnsafeMutableRawPointer(audioSource)) }
        (self.webrtc, self.source) = (webrtc, source)
        gst_object_unref(UnsafeMutableRawPointer(webrtc))   // the pipeline keeps them
        gst_object_unref(UnsafeMutableRawPointer(source))
        profileLevel = sps[1...3].map { String(format: "%02x", $0) }.joined()
        try configure(format: format, frameRate: frameRate)
        candidates.watch(webrtc, postingTo: bus)
        try open(timeout: timeout)
    }

    deinit {
        gst_element_set_state(pipeline, GST_STATE_NULL)
        gst_object_unref(UnsafeMutableRawPointer(bus))
        gst_object_unref(UnsafeMutableRawPointer(pipeline))
        candidates.end()
    }

    /// The source's caps (the stream's `avcC`), the send-only transceiver offering the
    /// stream's profile and level, and the watch for keyframe requests.
    private func configure(format: VideoFormatDescription, frameRate: Rational) throws(GStreamerError) {
        let record = format.configurationRecord.map { String(format: "%02x", $0) }.joined()
        let rate = frameRate.isKnown ? ",framerate=\(frameRate.numerator)/\(frameRate.denominator)" : ""
        guard let caps = gst_caps_from_string("video/x-h264,stream-format=avc,alignment=au,width=\(format.width),height=\(format.height)\(rate),codec_data=(buffer)\(record)"),
              let offered = gst_caps_from_string("application/x-rtp,media=video,encoding-name=H264,payload=\(Self.payloadType),clock-rate=90000,"
                                                 + "packetization-mode=(string)1,profile-level-id=(string)\(profileLevel),level-asymmetry-allowed=(string)1") else {
            throw GStreamerError("cannot describe the H.264 stream to GStreamer")
        }
        defer {
            gst_caps_unref(caps)
            gst_caps_unref(offered)
        }
        reel_g_object_set_caps(source, "caps", caps)
        let sending = reel_webrtc_enum_value("gst_webrtc_rtp_transceiver_direction_get_type", "sendonly")
        guard sending >= 0 else { throw GStreamerError("webrtcbin's transceiver directions are not known") }
        try link("payloaded", offering: offered, direction: sending)
        if audioSource != nil {
            guard let opus = gst_caps_from_string("application/x-rtp,media=audio,encoding-name=OPUS,payload=\(Self.audioPayloadType),clock-rate=48000,encoding-params=(string)2")
            else { throw GStreamerError("cannot describe the Opus stream to GStreamer") }
            defer { gst_caps_unref(opus) }
            try link("payloadedAudio", offering: opus, direction: sending)
        }
        guard let pad = gst_element_get_static_pad(source, "src") else { throw GStreamerError("appsrc has no source pad") }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        reel_gst_probe_keyframe_requests(pad, { context in
            guard let context else { return }
            let sender = Unmanaged<GStreamerWebRTCSender>.fromOpaque(context).takeUnretainedValue()
            sender.lock.withLock { sender.keyframeRequested = true }
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Links the element `name` (a payloader's caps filter) to a new send-only transceiver
    /// of `webrtcbin` offering `caps`.
    private func link(_ name: String, offering caps: UnsafeMutablePointer<GstCaps>, direction: gint) throws(GStreamerError) {
        guard let payloaded = gst_bin_get_by_name(reel_gst_bin(pipeline), name) else { throw GStreamerError("the WebRTC pipeline lacks \(name)") }
        defer { gst_object_unref(UnsafeMutableRawPointer(payloaded)) }
        guard reel_webrtc_link_sender(webrtc, payloaded, direction, caps) != 0 else { throw GStreamerError("cannot link \(name) to webrtcbin") }
    }

    /// Starts the pipeline, negotiates, and waits until media can flow.
    private func open(timeout: Double) throws {
        let deadline = Date().addingTimeInterval(timeout)
        if gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE { try throwBusError(or: "cannot start webrtcbin") }
        let answer = try WebRTCBin.negotiate(webrtc, through: candidates, until: deadline) { try waitOnBus(until: $0, $1) }
        // A server that cannot decode the stream (aiortc and browsers take H.264's constrained
        // baseline only) rejects its section: nothing would ever be seen.
        guard answer.receivedMedia.contains(where: { $0.kind == "video" && $0.codecs.contains { $0.name.uppercased() == "H264" } }) else {
            throw GStreamerError("the server takes no H.264 of this profile (profile-level-id \(profileLevel)); --profile baseline is what every WebRTC peer decodes",
                                 kind: .notMedia)
        }
        let connected = try waitOnBus(until: deadline) { ["connected", "failed", "closed"].contains(WebRTCBin.connection(of: webrtc)) }
        let state = WebRTCBin.connection(of: webrtc)
        guard connected, state == "connected" else {
            let ice = WebRTCBin.iceConnection(of: webrtc)
            let reason = state == "failed" || ice == "failed" ? "the WebRTC connection failed (ICE \(ice))"
                : "the WebRTC connection did not come up within \(MediaTime.formatSeconds(timeout)) s (ICE \(ice), connection \(state))"
            throw GStreamerError(reason, kind: state == "failed" ? .cannotRead : .timedOut)
        }
    }

    /// Sends one encoded picture (4-byte NAL lengths, as ``EncodedSample`` holds it). Throws
    /// when the pipeline failed or the connection is lost.
    public func send(_ sample: EncodedSample) throws(GStreamerError) {
        try throwBusError(or: nil)
        if let lost = WebRTCBin.lostConnection(of: webrtc) { throw GStreamerError(lost, kind: .cannotRead) }
        let time = sample.presentationTime.seconds
        let pts = lock.withLock { () -> GstClockTime in
            if timeline == nil { timeline = (time, gst_element_get_current_running_time(pipeline)) }
            return runningTime(of: time) ?? timeline!.base
        }
        let buffer = sample.data.withUnsafeBytes { gst_buffer_new_memdup($0.baseAddress, gsize($0.count)) }
        guard let buffer else { throw GStreamerError("cannot make a buffer of \(sample.data.count) bytes") }
        reel_gst_buffer_set_timing(buffer, pts, reel_gst_clock_time_none())
        if !sample.isKeyframe { reel_gst_buffer_mark_delta_unit(buffer) }
        try push(buffer, into: source)
    }

    /// Sends `frames` frames of sound (``audioFormat``) that begin at media time `time`
    /// (seconds, on the pictures' timeline). Sound from before the first picture sent is
    /// left out; nothing is sent without the sound branch.
    public func send(audio samples: UnsafeRawBufferPointer, frames: Int, at time: Double) throws(GStreamerError) {
        guard let audioSource, frames > 0, let pts = lock.withLock({ runningTime(of: time) }) else { return }
        guard let buffer = gst_buffer_new_memdup(samples.baseAddress, gsize(samples.count)) else {
            throw GStreamerError("cannot make a buffer of \(samples.count) bytes")
        }
        reel_gst_buffer_set_timing(buffer, pts, GstClockTime(Double(frames) / Double(Self.audioFormat.sampleRate) * 1e9))
        try push(buffer, into: audioSource)
    }

    /// The running time media time `time` is sent at; nil before the first picture, or for
    /// a time before it. Under `lock`.
    private func runningTime(of time: Double) -> GstClockTime? {
        guard let timeline, time >= timeline.origin else { return nil }
        return timeline.base + GstClockTime(((time - timeline.origin) * 1e9).rounded())
    }

    private func push(_ buffer: UnsafeMutablePointer<GstBuffer>, into element: UnsafeMutablePointer<GstElement>) throws(GStreamerError) {
        let flow = gst_app_src_push_buffer(reel_gst_app_src(element), buffer)
        if flow != GST_FLOW_OK { try throwBusError(or: "webrtcbin stopped taking the stream (\(String(cString: gst_flow_get_name(flow))))") }
    }

    /// Whether the peer asked for a keyframe since the last call.
    public func takeKeyframeRequest() -> Bool {
        lock.withLock {
            defer { keyframeRequested = false }
            return keyframeRequested
        }
    }

    /// Ends the stream: what was sent leaves the pipeline (at most `drain` seconds), then the
    /// session ends at the server (WHIP's DELETE). Once.
    public func finish(drain: Double = 0.5) {
        guard lock.withLock({ () -> Bool in
            defer { finished = true }
            return !finished
        }) else { return }
        gst_app_src_end_of_stream(reel_gst_app_src(source))
        if let audioSource { gst_app_src_end_of_stream(reel_gst_app_src(audioSource)) }
        let ends = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
        if let message = gst_bus_timed_pop_filtered(bus, GstClockTime(drain * 1e9), ends) { gst_message_unref(message) }
        gst_element_set_state(pipeline, GST_STATE_NULL)
        candidates.end()
    }

    /// Pops the bus until `done` holds (looked at after each message, and every 20 ms) or
    /// `deadline` passes; whether it held. Throws the first error on the bus.
    private func waitOnBus(until deadline: Date, _ done: () -> Bool) throws(GStreamerError) -> Bool {
        while !done() {
            guard Date() < deadline else { return false }
            guard let message = gst_bus_timed_pop(bus, 20_000_000) else { continue }
            if reel_gst_message_type(message) == GST_MESSAGE_ERROR {
                gst_bus_post(bus, message)   // back on the bus, for throwBusError to read
                try throwBusError(or: "webrtcbin failed")
            }
            gst_message_unref(message)
        }
        return true
    }

    /// Throws the first error on the bus, or `fallback` when there is none and it is given.
    private func throwBusError(or fallback: String?) throws(GStreamerError) {
        if let message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) {
            defer { gst_message_unref(message) }
            throw GStreamerError(errorMessage: message)
        }
        if let fallback { throw GStreamerError(fallback) }
    }
}
