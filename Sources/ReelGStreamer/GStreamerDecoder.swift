import CGStreamer
import Foundation
import ReelCore

/// Decodes a URI through GStreamer into Reel's own frames: `uridecodebin3` (which picks the
/// demuxer, the decoder and, where the machine has one, a hardware decoder from the
/// plug-in registry) with an appsink per stream, so that the pictures and sound enter
/// Reel's display, tap and audio paths exactly as FFmpeg's do. Video comes out as I420
/// (`yuv420p`), or I420_10LE (`yuv420p10le`) from a 10-bit stream, with the colorimetry
/// the stream names; audio as interleaved 32-bit float at the stream's rate; both with
/// timestamps in nanoseconds.
///
/// Built by hand rather than `playbin3`: playbin's sinks would show the picture and play
/// the sound themselves, and Reel keeps its own clocks, window and sound card.
///
/// Each stream asked for must be pulled (``nextVideoFrame(timeout:)``,
/// ``nextAudioFrame(timeout:)``): its appsink holds a few buffers and then holds the whole
/// pipeline back, as a bounded queue does. Streams not asked for go to a `fakesink`.
public final class GStreamerDecoder: @unchecked Sendable {
    /// Which streams to decode.
    public struct Streams: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The first video stream.
        public static let video = Streams(rawValue: 1)
        /// The first audio stream.
        public static let audio = Streams(rawValue: 2)

        init(video: Bool, audio: Bool) {
            self = Streams(rawValue: (video ? Self.video.rawValue : 0) | (audio ? Self.audio.rawValue : 0))
        }
    }

    /// The pipeline and its bus (a new pair for each start of a stalled open, under `lock`).
    private(set) var pipeline: UnsafeMutablePointer<GstElement>
    private(set) var bus: UnsafeMutablePointer<GstBus>
    /// `uridecodebin3`, which takes the stream selections.
    private(set) var source: UnsafeMutablePointer<GstElement>
    let wanted: Streams
    let lock = NSLock()
    /// Made on GStreamer's streaming thread when the decoder's pads appear.
    var videoSink: UnsafeMutablePointer<GstElement>?
    var audioSink: UnsafeMutablePointer<GstElement>?
    var linkFailure: String?
    /// The streams asked for that the input has, decoded (set once it is open).
    public internal(set) var decodes: Streams = []

    /// Buffers an appsink holds before it holds the pipeline back.
    static let sinkCapacity: guint = 4

    /// The highest variant bit rate an adaptive stream may switch to (bits/s), if capped.
    let maximumBitrate: Int?
    /// How far ahead of what is decoded an adaptive stream is downloaded (seconds), if bounded.
    let readAhead: Double?

    /// The audio stream to decode in place of decodebin3's default, by GStreamer's id.
    let audioStreamID: String?
    /// Whether and how the video branch deinterlaces.
    let deinterlace: Deinterlacing
    /// How an https input's server certificate is checked.
    let tls: TLSVerification

    // Set by the extensions (streams, bus, linking), under `lock` where a streaming thread writes.
    /// The input's streams, in the order of its stream collection (set once it is open).
    public internal(set) var collection: [Stream] = []
    /// The id of the stream each decoded pad carries now, by type.
    var playingIDs: [MediaType: String] = [:]
    /// The input's own metadata (tags of global scope: `title`, `artist`…), by FFmpeg's
    /// names for them, as far as GStreamer read them while opening.
    public internal(set) var metadata: [String: String] = [:]
    /// How full a network input's buffer is (0–100) when GStreamer last said so, until taken.
    var bufferingPercent: Int?
    /// The first video decoder added to the pipeline (``videoDecoder``).
    var chosenVideoDecoder: (name: String, isHardware: Bool)?
    /// The adaptive demuxer (`hlsdemux2`, `dashdemux2`) when the input is an adaptive stream.
    var adaptiveDemuxer: UnsafeMutablePointer<GstElement>?
    /// The elements ``link(_:from:)`` added to the pipeline.
    var branchElements: [UnsafeMutablePointer<GstElement>] = []
    /// How many stalled pipelines the open left for a new one.
    public private(set) var restarts = 0
    /// A WebRTC session's signalling and local candidates, when the input is one.
    let webRTC: WebRTCCandidates?
    /// A WebRTC session's RTP session and jitter buffers, whose counters
    /// ``webRTCReception`` reads (each with a reference of its own, under `lock`).
    var countedElements: [(element: UnsafeMutablePointer<GstElement>, isSession: Bool)] = []

    /// Opens `uri` and waits up to `timeout` seconds for its first pictures and sound
    /// (GStreamer's preroll); throws GStreamer's error when it cannot. An adaptive stream's
    /// variants are kept at or below `maximumBitrate` bits/s when it is given, and its
    /// segments downloaded at most `readAhead` seconds ahead of the decoders (GStreamer's
    /// adaptive demuxers go 30 s ahead by default). With `audioStreamID` (an id of
    /// ``collection`` from an earlier open of the same input), that audio stream is decoded
    /// from the start instead of the default one.
    /// Pictures flagged interlaced are deinterlaced by GStreamer's `deinterlace` (yadif) as
    /// `deinterlace` says. An https server's certificate is checked as `tls` says.
    public convenience init(uri: String, streams: Streams, timeout: Double = 15, maximumBitrate: Int? = nil, readAhead: Double? = nil,
                            audioStreamID: String? = nil, deinterlace: Deinterlacing = Deinterlacing(.auto, .field),
                            tls: TLSVerification = TLSVerification()) throws(GStreamerError) {
        try self.init(uri: uri, streams: streams, timeout: timeout, maximumBitrate: maximumBitrate, readAhead: readAhead,
                      audioStreamID: audioStreamID, deinterlace: deinterlace, tls: tls, forcedRestarts: 0)
    }

    /// When and how pictures are deinterlaced, in GStreamer's `deinterlace` element.
    public struct Deinterlacing: Sendable, Equatable {
        /// When: GStreamer's `mode` (auto: pictures its caps or buffers flag interlaced).
        public var setting: DeinterlaceSetting
        /// A picture per field (`fields=all`) or per frame (the top fields).
        public var mode: DeinterlaceMode

        /// Deinterlacing as `setting` and `mode` say.
        public init(_ setting: DeinterlaceSetting, _ mode: DeinterlaceMode) {
            self.setting = setting
            self.mode = mode
        }

        /// The element's properties by name, as `gst-launch` writes them; none without one.
        var properties: [(String, String)]? {
            guard setting != .no else { return nil }
            return [("mode", setting == .yes ? "interlaced" : "auto"), ("method", "yadif"), ("fields", mode == .field ? "all" : "top")]
        }
    }

    /// How long the open of a local file may go without a word from GStreamer (a message
    /// on the bus, a stream linked) before a new pipeline takes over.
    ///
    /// GStreamer 1.22 now and then stalls opening a local file on a loaded machine: the
    /// demuxer's task pauses after it has listed the streams, before decodebin3 exposes any,
    /// and nothing more happens (stack dumps of CI runs: qtdemux and matroskademux alike,
    /// every thread waiting). A new pipeline opens the file.
    static let localStallLimit = 3.0

    /// How many times one open leaves a stalled pipeline for a new one.
    static let maximumRestarts = 2

    /// Opens `uri` as the public initialiser does, after leaving the first `forcedRestarts`
    /// pipelines for new ones as soon as they start (for tests: as a stall would).
    init(uri: String, streams: Streams, timeout: Double, maximumBitrate: Int?, readAhead: Double?, audioStreamID: String?,
         deinterlace: Deinterlacing = Deinterlacing(.auto, .field), tls: TLSVerification = TLSVerification(), forcedRestarts: Int) throws(GStreamerError) {
        _ = GStreamer.initialised
        self.deinterlace = deinterlace
        self.tls = tls
        if tls.isOn, let authorities = tls.authorities { try GStreamerTrust.trustAuthorities(in: authorities) }
        self.maximumBitrate = maximumBitrate
        self.readAhead = readAhead
        self.audioStreamID = audioStreamID
        wanted = streams
        webRTC = nil
        (pipeline, bus, source) = try Self.assemble(uri: uri)
        connectSignals()
        try open(uri: uri, timeout: timeout, forcedRestarts: forcedRestarts)
    }

    /// Receives a WebRTC session (WHEP) through GStreamer's `webrtcbin`, set up by
    /// `signalling`, and waits up to `timeout` seconds for its first pictures and sound.
    /// Its jitter buffer holds packets `latency` ms, for late and retransmitted ones.
    /// Throws the signalling's own error (the server's refusal) as it is, and GStreamer's
    /// as a ``GStreamerError``.
    public init(webRTC signalling: WebRTCSignalling, streams: Streams, timeout: Double = 15, latency: Int = 50) throws {
        _ = GStreamer.initialised
        deinterlace = Deinterlacing(.auto, .field)
        tls = TLSVerification()
        (maximumBitrate, readAhead, audioStreamID) = (nil, nil, nil)
        wanted = streams
        webRTC = WebRTCCandidates(signalling: signalling)
        (pipeline, bus, source) = try Self.assembleWebRTC(streams: streams, latency: latency)
        connectWebRTCSignals()
        // A failed open ends the session the server made, if any, in deinit.
        try openWebRTC(timeout: timeout)
    }

    deinit {
        gst_element_set_state(pipeline, GST_STATE_NULL)
        for (element, _) in countedElements { gst_object_unref(UnsafeMutableRawPointer(element)) }
        gst_object_unref(UnsafeMutableRawPointer(bus))
        gst_object_unref(UnsafeMutableRawPointer(pipeline))
        webRTC?.end()
    }

    /// A pipeline of one `uridecodebin3` reading `uri`; its bus; the `uridecodebin3`.
    private static func assemble(uri: String) throws(GStreamerError)
        -> (UnsafeMutablePointer<GstElement>, UnsafeMutablePointer<GstBus>, UnsafeMutablePointer<GstElement>) {
        guard let pipeline = gst_pipeline_new("reel") else { throw GStreamerError("cannot make a pipeline") }
        guard let bus = gst_element_get_bus(pipeline) else {
            gst_object_unref(UnsafeMutableRawPointer(pipeline))
            throw GStreamerError("cannot make a pipeline")
        }
        guard let source = gst_element_factory_make("uridecodebin3", "source") else {
            gst_object_unref(UnsafeMutableRawPointer(bus))
            gst_object_unref(UnsafeMutableRawPointer(pipeline))
            throw GStreamerError("no uridecodebin3 element (GStreamer's base plug-ins, 1.22 or later)")
        }
        reel_g_object_set_string(source, "uri", uri)
        // A network input's buffer reports how full it is (BUFFERING messages); the player's
        // shell, not GStreamer, still decides when playback waits for it.
        if !uri.lowercased().hasPrefix("file:") { reel_g_object_set_boolean(source, "use-buffering", 1) }
        gst_bin_add(reel_gst_bin(pipeline), source)
        return (pipeline, bus, source)
    }

    /// The streaming threads' callbacks of the pipeline into this decoder. They name the
    /// element they come from, and ``link(_:from:)`` and ``noteElement(_:in:)`` ignore a
    /// stalled pipeline's.
    private func connectSignals() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        reel_gst_connect_pad_added(source, { element, pad, context in
            guard let element, let pad, let context else { return }
            Unmanaged<GStreamerDecoder>.fromOpaque(context).takeUnretainedValue().link(pad, from: element)
        }, context)
        if audioStreamID != nil {
            reel_gst_connect_select_stream(source, { _, _, stream, context in
                guard let stream, let context else { return -1 }
                return Unmanaged<GStreamerDecoder>.fromOpaque(context).takeUnretainedValue().selects(stream)
            }, context)
        }
        reel_gst_connect_deep_element_added(pipeline, { bin, _, element, context in
            guard let bin, let element, let context else { return }
            Unmanaged<GStreamerDecoder>.fromOpaque(context).takeUnretainedValue().noteElement(element, in: UnsafeMutableRawPointer(bin))
        }, context)
    }

    /// The streams whose appsinks are linked now.
    var decoding: Streams { lock.withLock { Streams(video: videoSink != nil, audio: audioSink != nil) } }

    /// Whether `source` is the `uridecodebin3` of the pipeline started last (under `lock`).
    func isCurrent(_ source: UnsafeMutablePointer<GstElement>) -> Bool { source == self.source }

    /// Whether `pipeline` is the pipeline started last (under `lock`).
    func isCurrent(pipeline: UnsafeMutableRawPointer) -> Bool { pipeline == UnsafeMutableRawPointer(self.pipeline) }

    /// Starts the pipeline, and a new one while it stalls (see ``localStallLimit``), until
    /// one plays or `timeout` seconds have passed.
    private func open(uri: String, timeout: Double, forcedRestarts: Int) throws(GStreamerError) {
        let deadline = Date().addingTimeInterval(timeout)
        let stallLimit = uri.lowercased().hasPrefix("file:") ? Self.localStallLimit : nil
        while true {
            let limit = restarts < forcedRestarts ? 0 : restarts - forcedRestarts < Self.maximumRestarts ? stallLimit : nil
            if try start(timeout: timeout, deadline: deadline, stallLimit: limit) { return }
            try restart(uri: uri)
        }
    }

    /// Leaves a stalled pipeline for a new one, and forgets what the stalled one added.
    private func restart(uri: String) throws(GStreamerError) {
        let fresh = try Self.assemble(uri: uri)
        let context = Unmanaged.passUnretained(self).toOpaque()
        reel_g_signal_disconnect_by_data(source, context)
        reel_g_signal_disconnect_by_data(pipeline, context)
        let stalled = AbandonedPipeline(pipeline: pipeline, bus: bus, owner: self)
        lock.withLock {
            (pipeline, bus, source) = fresh
            branchElements = []
            (videoSink, audioSink, linkFailure, playingIDs) = (nil, nil, nil, [:])
            (bufferingPercent, chosenVideoDecoder, adaptiveDemuxer) = (nil, nil, nil)
        }
        connectSignals()
        metadata = [:]
        restarts += 1
        stalled.stopOnItsOwnThread()
    }

    /// Opens the input (PAUSED), waits for the decoder's pads of the streams asked for
    /// that the input has (its stream collection says which), for the first buffers at
    /// every sink (the preroll), then plays. A pipeline has nothing to preroll until the
    /// pads appear, so the state alone says nothing. Returns false, to be started again,
    /// when GStreamer says nothing for `stallLimit` seconds before the pads appear.
    private func start(timeout: Double, deadline: Date, stallLimit: Double?) throws(GStreamerError) -> Bool {
        if gst_element_set_state(pipeline, GST_STATE_PAUSED) == GST_STATE_CHANGE_FAILURE { try failure("cannot open") }
        var lastWord = Date()
        var linkedBefore: Streams = []
        var present: Streams?
        // What the plug-in registry lacked for this input ("video/x-unknown decoder"): the
        // error that follows says only that data stopped flowing.
        var missing: [String] = []
        // The newest collection: its streams' tags (languages) fill in as the input is read,
        // so it is described once prerolled.
        var latestCollection: UnsafeMutablePointer<GstStreamCollection>?
        defer { if let latestCollection { gst_object_unref(UnsafeMutableRawPointer(latestCollection)) } }
        while true {
            if let linkFailure = lock.withLock({ linkFailure }) { throw GStreamerError(linkFailure) }
            let linked = decoding
            if let present, linked.isSuperset(of: present.intersection(wanted)) {
                if present.isDisjoint(with: wanted) { throw GStreamerError(wanted == .audio ? "no audio stream" : wanted == .video ? "no video stream" : "no audio or video stream", kind: .noStreams) }
                break
            }
            guard Date() < deadline else {
                let stage = present.map { "gave no decoded \($0.intersection(wanted).subtracting(linked) == .audio ? "audio" : "video")" } ?? "listed no streams"
                throw GStreamerError("GStreamer \(stage) within \(MediaTime.formatSeconds(timeout)) s", kind: .timedOut)
            }
            if linked != linkedBefore { (lastWord, linkedBefore) = (Date(), linked) }
            if let stallLimit, Date().timeIntervalSince(lastWord) >= stallLimit { return false }
            // Every message, told apart by its exact type: a mask of extended types (the
            // stream collection is one) lets others through.
            guard let message = gst_bus_timed_pop(bus, 20_000_000) else { continue }
            lastWord = Date()
            let type = reel_gst_message_type(message)
            if type == GST_MESSAGE_ERROR {
                if !missing.isEmpty {
                    gst_message_unref(message)
                    throw GStreamerError("no GStreamer plug-in for \(missing.joined(separator: ", "))", kind: .missingPlugin)
                }
                gst_bus_post(bus, message)   // back on the bus, for checkBus to read and throw
                try failure("cannot open")
            }
            if type == GST_MESSAGE_ELEMENT, let structure = gst_message_get_structure(message),
               gst_structure_has_name(structure, "missing-plugin") != 0, let name = gst_structure_get_string(structure, "name") {
                let description = String(cString: name)
                if !missing.contains(description) { missing.append(description) }
            }
            if type == GST_MESSAGE_TAG { noteTags(message) }
            if type == GST_MESSAGE_BUFFERING { noteBuffering(message) }
            if type == GST_MESSAGE_STREAM_COLLECTION {
                if let latestCollection { gst_object_unref(UnsafeMutableRawPointer(latestCollection)) }
                gst_message_parse_stream_collection(message, &latestCollection)
                let types = latestCollection.map { collection in
                    (0..<gst_stream_collection_get_size(collection)).compactMap { gst_stream_collection_get_stream(collection, $0).map(Self.mediaType) }
                } ?? []
                present = Streams(video: types.contains(.video), audio: types.contains(.audio))
            }
            gst_message_unref(message)
        }
        var state = GST_STATE_NULL, pending = GST_STATE_NULL
        let result = gst_element_get_state(pipeline, &state, &pending, GstClockTime(max(deadline.timeIntervalSinceNow, 0) * 1e9))
        if result == GST_STATE_CHANGE_FAILURE { try failure("cannot open") }
        if result == GST_STATE_CHANGE_ASYNC { throw GStreamerError("GStreamer prerolled no first frames within \(MediaTime.formatSeconds(timeout)) s", kind: .timedOut) }
        // The tags posted while prerolling; an error among them goes back for checkBus.
        if let error = popBusUntilError(notingTags: true) {
            gst_bus_post(bus, error)
            try failure("cannot open")
        }
        if let latestCollection { Self.awaitAudioTags(of: latestCollection, until: min(deadline, Date().addingTimeInterval(Self.tagWait))) }
        let described = latestCollection.map(Self.describe) ?? []
        lock.withLock { collection = described }
        decodes = decoding
        if gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE { try failure("cannot play") }
        return true
    }
}
