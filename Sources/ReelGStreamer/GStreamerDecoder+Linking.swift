import CGStreamer
import Foundation
import ReelCore

// Building the pipeline as GStreamer's streaming threads announce pads and elements: an
// appsink branch per stream asked for, the video decoder and adaptive demuxer noted.
extension GStreamerDecoder {
    /// A decoded pad of `source` appeared (streaming thread): the first video and audio pads
    /// asked for get a converter and an appsink, the others a fakesink. A pad of a stalled
    /// pipeline, left for a new one, is left alone.
    func link(_ pad: UnsafeMutablePointer<GstPad>, from source: UnsafeMutablePointer<GstElement>) {
        guard let caps = gst_pad_get_current_caps(pad) ?? gst_pad_query_caps(pad, nil) else { return }
        defer { gst_caps_unref(caps) }
        guard let structure = gst_caps_get_structure(caps, 0) else { return }
        let kind = String(cString: gst_structure_get_name(structure))
        let branch: [String]
        let output: String?
        var isVideo = false
        lock.lock()
        guard isCurrent(source) else { return lock.unlock() }
        let pipeline = self.pipeline
        // Each branch starts with a queue: without one, a CI run under full load twice saw
        // an open wait past its 15 s (the branch ran on decodebin3's own stream thread).
        if kind.hasPrefix("video/"), wanted.contains(.video), videoSink == nil {
            // The decoder's caps at this point do not say yet whether pictures are interlaced:
            // auto leaves it to the element, which passes progressive pictures through.
            branch = ["queue"] + (deinterlace.properties != nil ? ["deinterlace"] : []) + ["videoconvert", "capsfilter", "appsink"]
            // 10-bit pictures stay 10-bit (HDR is tone-mapped from them, as FFmpeg's are).
            output = "video/x-raw,format=(string){I420,I420_10LE}"
            isVideo = true
        } else if kind.hasPrefix("audio/"), wanted.contains(.audio), audioSink == nil {
            branch = ["queue", "audioconvert", "audioresample", "capsfilter", "appsink"]
            output = "audio/x-raw,format=F32LE,layout=interleaved"
        } else {
            branch = ["fakesink"]
            output = nil
        }
        lock.unlock()
        var elements: [UnsafeMutablePointer<GstElement>] = []
        for name in branch {
            guard let element = gst_element_factory_make(name, nil) else {
                noteLinkFailure("no \(name) element", from: source)
                return
            }
            elements.append(element)
        }
        for element in elements {
            gst_bin_add(reel_gst_bin(pipeline), element)
        }
        lock.withLock { if isCurrent(source) { branchElements += elements } }
        if let output, let capsfilter = elements.first(where: { elementName($0).hasPrefix("capsfilter") }), let filterCaps = gst_caps_from_string(output) {
            reel_g_object_set_caps(capsfilter, "caps", filterCaps)
            gst_caps_unref(filterCaps)
        }
        if let properties = deinterlace.properties, let deinterlacer = elements.first(where: { elementName($0).hasPrefix("deinterlace") }) {
            for (name, value) in properties { gst_util_set_object_arg(UnsafeMutableRawPointer(deinterlacer).assumingMemoryBound(to: GObject.self), name, value) }
        }
        let sink = elements[elements.count - 1]
        reel_g_object_set_boolean(sink, "sync", 0)
        if output != nil {
            reel_g_object_set_uint(sink, "max-buffers", Self.sinkCapacity)
            reel_g_object_set_boolean(sink, "drop", 0)
        } else {
            reel_g_object_set_boolean(sink, "async", 0)
        }
        for (upstream, downstream) in zip(elements, elements.dropFirst()) where gst_element_link(upstream, downstream) == 0 {
            noteLinkFailure("cannot link \(elementName(upstream)) to \(elementName(downstream))", from: source)
            return
        }
        // A stalled pipeline being stopped takes no elements to PAUSED.
        guard lock.withLock({ isCurrent(source) }) else { return }
        for element in elements { gst_element_sync_state_with_parent(element) }
        guard let sinkPad = gst_element_get_static_pad(elements[0], "sink") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(sinkPad)) }
        if gst_pad_link(pad, sinkPad) != GST_PAD_LINK_OK {
            noteLinkFailure("cannot link the decoder's \(kind) pad", from: source)
            return
        }
        // Streams not decoded are remembered too: a selection keeps them, as it found them.
        let streamID = gst_pad_get_stream(pad).map { stream in
            defer { gst_object_unref(UnsafeMutableRawPointer(stream)) }
            return gst_stream_get_stream_id(stream).map { String(cString: $0) }
        } ?? nil
        let type: MediaType? = kind.hasPrefix("video/") ? .video : kind.hasPrefix("audio/") ? .audio : nil
        let linkedBus = lock.withLock { () -> UnsafeMutablePointer<GstBus>? in
            guard isCurrent(source) else { return nil }
            if let type, playingIDs[type] == nil { playingIDs[type] = streamID }
            guard output != nil else { return nil }
            if isVideo { videoSink = sink } else { audioSink = sink }
            return bus
        }
        // The open waits on the bus: a word there wakes it at once to see the sink linked
        // (it looked again only every 20 ms).
        if let linkedBus, let word = gst_structure_new_empty("reel-linked"), let message = gst_message_new_application(reel_gst_object(pipeline), word) {
            gst_bus_post(linkedBus, message)
        }
    }

    /// Why linking a pad of `source` failed, kept for the open to throw (not a stalled pipeline's).
    func noteLinkFailure(_ reason: String, from source: UnsafeMutablePointer<GstElement>) {
        lock.withLock { if isCurrent(source) { linkFailure = reason } }
    }

    private func elementName(_ element: UnsafeMutableRawPointer) -> String {
        guard let name = gst_object_get_name(reel_gst_object(element)) else { return "?" }
        defer { g_free(name) }
        return String(cString: name)
    }

    /// A `souphttpsrc` takes any certificate when ``tls`` is off (by itself it checks them;
    /// the authorities it trusts are ``GStreamerTrust``'s).
    private func checkCertificates(of source: UnsafeMutablePointer<GstElement>) {
        reel_g_object_set_boolean(source, "ssl-strict", tls.isOn ? 1 : 0)
    }

    /// The element decoding the video, as decodebin chose it from the registry by rank: its
    /// factory name (`avdec_h264`, `vah264dec`) and whether it decodes on hardware.
    public var videoDecoder: (name: String, isHardware: Bool)? { lock.withLock { chosenVideoDecoder } }

    /// The download bandwidth the adaptive demuxer measures (bits/s), for an adaptive stream.
    public var adaptiveBandwidth: Int? {
        guard let demuxer = lock.withLock({ adaptiveDemuxer }) else { return nil }
        return Int(reel_g_object_get_uint(UnsafeMutableRawPointer(demuxer), "current-bandwidth"))
    }

    /// An element was added somewhere in `pipeline` (a streaming thread): the first video
    /// decoder and the adaptive demuxer are remembered; the demuxer gets the bit-rate cap
    /// and the read-ahead bound; an https source checks certificates as told; a WebRTC
    /// session's own elements are set up and counted
    /// (``noteWebRTCElement(_:factoryName:kinds:)``). A stalled pipeline's are not
    /// remembered.
    func noteElement(_ element: UnsafeMutablePointer<GstElement>, in pipeline: UnsafeMutableRawPointer) {
        guard let factory = gst_element_get_factory(element), let klass = gst_element_factory_get_metadata(factory, "klass") else { return }
        let (kinds, factoryName) = (String(cString: klass), elementName(UnsafeMutableRawPointer(factory)))
        if webRTC != nil, noteWebRTCElement(element, factoryName: factoryName, kinds: kinds) { return }
        if factoryName == "souphttpsrc" { return checkCertificates(of: element) }
        if kinds.contains("Demuxer/Adaptive") {
            if let maximumBitrate { reel_g_object_set_uint(UnsafeMutableRawPointer(element), "max-bitrate", guint(clamping: maximumBitrate)) }
            if let readAhead, readAhead > 0 {
                let nanoseconds = guint64(min(readAhead, 3600) * 1e9)
                reel_g_object_set_uint64(UnsafeMutableRawPointer(element), "max-buffering-time", nanoseconds)
                reel_g_object_set_uint64(UnsafeMutableRawPointer(element), "high-watermark-time", nanoseconds)
            }
            lock.withLock { if isCurrent(pipeline: pipeline) { adaptiveDemuxer = element } }
            return
        }
        guard kinds.contains("Decoder"), kinds.contains("Video") else { return }
        let decoder = (factoryName, kinds.contains("Hardware"))
        lock.withLock { if isCurrent(pipeline: pipeline), chosenVideoDecoder == nil { chosenVideoDecoder = decoder } }
    }
}
