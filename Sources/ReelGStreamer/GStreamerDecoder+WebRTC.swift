import CGStreamer
import Foundation
import ReelCore

// Receiving a WebRTC session (WHEP): `webrtcbin` in place of `uridecodebin3`, a `decodebin`
// on each stream it receives, and the same appsink branches as any input's.
extension GStreamerDecoder {
    /// The codecs offered for video (H.264 first: what camera servers send without
    /// transcoding) and sound, as `webrtcbin` takes them for a transceiver.
    static let offeredVideo = "application/x-rtp,media=video,encoding-name=H264,payload=96,clock-rate=90000,packetization-mode=(string)1,"
        + "profile-level-id=(string)42e01f;application/x-rtp,media=video,encoding-name=VP8,payload=97,clock-rate=90000"
    static let offeredAudio = "application/x-rtp,media=audio,encoding-name=OPUS,payload=111,clock-rate=48000,encoding-params=(string)2"

    /// A pipeline of one `webrtcbin` receiving `streams` (its jitter buffer holding packets
    /// `latency` ms for late and retransmitted ones); its bus; the `webrtcbin`.
    static func assembleWebRTC(streams: Streams, latency: Int) throws(GStreamerError)
        -> (UnsafeMutablePointer<GstElement>, UnsafeMutablePointer<GstBus>, UnsafeMutablePointer<GstElement>) {
        guard let pipeline = gst_pipeline_new("reel-webrtc"), let bus = gst_element_get_bus(pipeline) else { throw GStreamerError("cannot make a pipeline") }
        func release() {
            gst_object_unref(UnsafeMutableRawPointer(bus))
            gst_object_unref(UnsafeMutableRawPointer(pipeline))
        }
        guard let webrtc = gst_element_factory_make("webrtcbin", "source") else {
            release()
            throw GStreamerError("no webrtcbin element (GStreamer's bad plug-ins, and gstreamer1.0-nice for ICE)", kind: .missingPlugin)
        }
        gst_bin_add(reel_gst_bin(pipeline), webrtc)
        gst_util_set_object_arg(UnsafeMutableRawPointer(webrtc).assumingMemoryBound(to: GObject.self), "bundle-policy", "max-bundle")
        reel_g_object_set_uint(webrtc, "latency", guint(clamping: max(latency, 0)))
        let receiving = reel_webrtc_enum_value("gst_webrtc_rtp_transceiver_direction_get_type", "recvonly")
        let offers = (streams.contains(.video) ? [offeredVideo] : []) + (streams.contains(.audio) ? [offeredAudio] : [])
        for offered in offers {
            guard receiving >= 0, let caps = gst_caps_from_string(offered) else {
                release()
                throw GStreamerError("webrtcbin's transceiver directions are not known")
            }
            defer { gst_caps_unref(caps) }
            if reel_webrtc_add_transceiver(webrtc, receiving, caps) == 0 {
                release()
                throw GStreamerError("webrtcbin made no transceiver for \(offered.prefix { $0 != "," })")
            }
        }
        return (pipeline, bus, webrtc)
    }

    /// The callbacks of `webrtcbin` into this decoder and its candidates: its streams, its
    /// candidates, and the ends of gathering and of the connection (words on the bus,
    /// which the open waits on).
    func connectWebRTCSignals() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        reel_gst_connect_pad_added(source, { element, pad, context in
            guard let element, let pad, let context else { return }
            Unmanaged<GStreamerDecoder>.fromOpaque(context).takeUnretainedValue().decodeReceived(pad, from: element)
        }, context)
        webRTC?.watch(source, postingTo: bus)
        reel_gst_connect_deep_element_added(pipeline, { bin, _, element, context in
            guard let bin, let element, let context else { return }
            Unmanaged<GStreamerDecoder>.fromOpaque(context).takeUnretainedValue().noteElement(element, in: UnsafeMutableRawPointer(bin))
        }, context)
    }

    /// A stream `webrtcbin` receives (its RTP, after SRTP and the jitter buffer): a
    /// `decodebin` depayloads and decodes it, and its decoded pad gets the usual branch.
    private func decodeReceived(_ pad: UnsafeMutablePointer<GstPad>, from webrtc: UnsafeMutablePointer<GstElement>) {
        guard gst_pad_get_direction(pad) == GST_PAD_SRC else { return }
        guard let decodebin = gst_element_factory_make("decodebin", nil) else { return noteLinkFailure("no decodebin element", from: webrtc) }
        reel_gst_connect_pad_added(decodebin, { _, pad, context in
            guard let pad, let context else { return }
            let decoder = Unmanaged<GStreamerDecoder>.fromOpaque(context).takeUnretainedValue()
            decoder.link(pad, from: decoder.lock.withLock { decoder.source })
        }, Unmanaged.passUnretained(self).toOpaque())
        gst_bin_add(reel_gst_bin(pipeline), decodebin)
        lock.withLock { branchElements.append(decodebin) }
        gst_element_sync_state_with_parent(decodebin)
        guard let sinkPad = gst_element_get_static_pad(decodebin, "sink") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(sinkPad)) }
        if gst_pad_link(pad, sinkPad) != GST_PAD_LINK_OK { noteLinkFailure("cannot link a received stream to decodebin", from: webrtc) }
    }

    /// Starts `webrtcbin`, makes the offer, sends it with the candidates of the host, sets the
    /// server's answer, and waits until every stream the server sends that was asked for is
    /// decoded, or `timeout` seconds have passed. Throws the signalling's error as it is.
    func openWebRTC(timeout: Double) throws {
        guard let webRTC else { return }
        let deadline = Date().addingTimeInterval(timeout)
        if gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE { try failure("cannot start webrtcbin") }
        let answer = try WebRTCBin.negotiate(source, through: webRTC, until: deadline) { try waitOnBus(until: $0, $1) }
        let sent = answer.sentMedia
        let present = Streams(video: sent.contains { $0.kind == "video" }, audio: sent.contains { $0.kind == "audio" })
        guard !present.isDisjoint(with: wanted) else {
            throw GStreamerError(wanted == .audio ? "no audio stream" : wanted == .video ? "no video stream" : "no audio or video stream", kind: .noStreams)
        }
        lock.withLock { collection = Self.describe(answer) }
        let needed = present.intersection(wanted)
        // Linked, and the first buffer's caps at each sink: the input's description reads them.
        let linked = try waitOnBus(until: deadline) {
            if WebRTCBin.iceConnection(of: source) == "failed" { return true }
            return decoding.isSuperset(of: needed) && (!needed.contains(.video) || videoFormat != nil) && (!needed.contains(.audio) || audioFormat != nil)
        }
        let iceConnection = WebRTCBin.iceConnection(of: source)
        if iceConnection == "failed" { throw GStreamerError("the WebRTC connection failed (ICE found no path to the server)", kind: .cannotRead) }
        guard linked else {
            let stage = ["new", "checking"].contains(iceConnection) ? "the WebRTC connection did not come up (ICE \(iceConnection))"
                : "GStreamer gave no decoded \(needed.subtracting(decoding) == .audio ? "audio" : "video")"
            throw GStreamerError("\(stage) within \(MediaTime.formatSeconds(timeout)) s", kind: .timedOut)
        }
        decodes = decoding
        // The streams decoded are the answer's (their pads carry webrtcbin's own stream ids).
        lock.withLock { for stream in collection where decodes.contains(stream.type == .video ? .video : .audio) { playingIDs[stream.type] = stream.id } }
    }

    /// The RTCP bandwidth a WebRTC session may use (bits/s, as `rtpsession` counts it) so
    /// that its report interval, the floor under how soon a loss is asked for again
    /// (RFC 4585 allows one early report per interval), is about 80 ms. What `rtpsession`
    /// works out by itself for a receiver is about a second (0.33 to 1.25 s measured), too
    /// late for any jitter buffer a viewer waits on. The reports cost about 10 kbit/s.
    static let feedbackBandwidth = 25_000.0

    /// Lets a WebRTC session's `rtpsession` report (and ask for what was lost) every
    /// ~80 ms rather than every second.
    static func askForLossesPromptly(_ session: UnsafeMutablePointer<GstElement>) {
        reel_g_object_set_double(UnsafeMutableRawPointer(session), "rtcp-fraction", feedbackBandwidth)
    }

    /// Sets up an element `webrtcbin` added, if it is one of the session's own (its RTP
    /// session reports losses promptly, its depayloaders ask for keyframes after a loss)
    /// and keeps those whose counters ``webRTCReception`` reads; whether it was one.
    func noteWebRTCElement(_ element: UnsafeMutablePointer<GstElement>, factoryName: String, kinds: String) -> Bool {
        switch factoryName {
        case "rtpsession":
            Self.askForLossesPromptly(element)
        case "rtpjitterbuffer":
            break
        default:
            guard kinds.contains("Depayloader") else { return false }
            Self.askForKeyframesAfterLosses(element)
            return true
        }
        gst_object_ref(UnsafeMutableRawPointer(element))
        lock.withLock { countedElements.append((element: element, isSession: factoryName == "rtpsession")) }
        return true
    }

    /// What the WebRTC session's jitter buffers and RTP session counted so far; nil for
    /// other inputs.
    public var webRTCReception: WebRTCReceptionStatistics? {
        guard webRTC != nil else { return nil }
        var counts = reel_rtp_reception_counts()
        // Read outside `lock` (each element takes its own); the references keep them.
        for (element, isSession) in lock.withLock({ countedElements }) {
            if isSession { reel_rtp_session_count(element, &counts) } else { reel_rtp_jitterbuffer_count(element, &counts) }
        }
        var reception = WebRTCReceptionStatistics()
        reception.packetsPassed = Int(counts.passed)
        reception.packetsLost = Int(counts.lost)
        reception.retransmissionsAsked = Int(counts.asked)
        reception.packetsRepaired = Int(counts.repaired)
        reception.retransmissionRoundTrip = counts.round_trip > 0 ? Double(counts.round_trip) / 1e9 : nil
        reception.keyframesAsked = Int(counts.keyframe_requests)
        return reception
    }

    /// Lets a WebRTC session's video depayloader ask for a keyframe when a loss reaches it
    /// (one the jitter buffer's NACKs did not mend), which `rtpsession` sends to the server
    /// as a PLI, as browsers do: without it, what follows a loss stays spoiled until the
    /// sender's next keyframe, seconds later for a camera. (GStreamer leaves this off; an
    /// audio depayloader has no such property.)
    static func askForKeyframesAfterLosses(_ depayloader: UnsafeMutablePointer<GstElement>) {
        let object = UnsafeMutableRawPointer(depayloader)
        if reel_g_object_has_property(object, "request-keyframe") != 0 { reel_g_object_set_boolean(object, "request-keyframe", 1) }
    }

    /// Whether the input is a WebRTC session (WHEP) rather than a URI.
    public var isWebRTC: Bool { webRTC != nil }

    /// Ends a WebRTC input's session at its server (WHEP's DELETE), once; the pipeline is
    /// left to the decoder's end. Nothing for other inputs.
    public func endSession() { webRTC?.end() }

    /// Why a WebRTC input is lost, when ICE says it is (`disconnected`: the server stopped
    /// answering its consent checks; `failed`, `closed`); nil while it is not, and for
    /// other inputs.
    public var lostConnection: String? { webRTC == nil ? nil : WebRTCBin.lostConnection(of: source) }

    /// Pops the bus until `done` holds (looked at after each message, and every 20 ms) or
    /// `deadline` passes; whether it held. Throws the first error on the bus, or a failure
    /// to link a stream.
    @discardableResult
    private func waitOnBus(until deadline: Date, _ done: () -> Bool) throws(GStreamerError) -> Bool {
        while !done() {
            if let linkFailure = lock.withLock({ linkFailure }) { throw GStreamerError(linkFailure) }
            guard Date() < deadline else { return false }
            guard let message = gst_bus_timed_pop(bus, 20_000_000) else { continue }
            if reel_gst_message_type(message) == GST_MESSAGE_ERROR {
                gst_bus_post(bus, message)   // back on the bus, for checkBus to read and throw
                try failure("webrtcbin failed")
            }
            gst_message_unref(message)
        }
        return true
    }

    /// The streams an answer says the server sends, as the stream list of an input.
    private static func describe(_ answer: WebRTCDescription) -> [Stream] {
        answer.sentMedia.enumerated().map { index, media in
            let codec = media.preferredCodecs.first
            return Stream(id: media.mid ?? String(index), type: media.kind == "video" ? .video : .audio, codec: codec?.ffmpegName ?? "unknown",
                          isDefault: true, sampleRate: media.kind == "audio" ? codec?.clockRate : nil, channels: codec?.channels)
        }
    }
}
