import CGStreamer
import Foundation
import ReelCore

/// Decodes a URI through GStreamer into Reel's own frames: `uridecodebin3` (which picks the
/// demuxer, the decoder and, where the machine has one, a hardware decoder from the
/// plug-in registry) with an appsink per stream, so that the pictures and sound enter
/// Reel's display, tap and audio paths exactly as FFmpeg's do. Video comes out as I420
/// (`yuv420p`), audio as interleaved 32-bit float at the stream's rate; both with
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

    private let pipeline: UnsafeMutablePointer<GstElement>
    private let bus: UnsafeMutablePointer<GstBus>
    /// `uridecodebin3`, which takes the stream selections.
    private let source: UnsafeMutablePointer<GstElement>
    private let wanted: Streams
    private let lock = NSLock()
    /// Made on GStreamer's streaming thread when the decoder's pads appear.
    private var videoSink: UnsafeMutablePointer<GstElement>?
    private var audioSink: UnsafeMutablePointer<GstElement>?
    private var linkFailure: String?
    /// The streams asked for that the input has, decoded (set once it is open).
    public private(set) var decodes: Streams = []

    /// Buffers an appsink holds before it holds the pipeline back.
    static let sinkCapacity: guint = 4

    /// The highest variant bit rate an adaptive stream may switch to (bits/s), if capped.
    private let maximumBitrate: Int?
    /// How far ahead of what is decoded an adaptive stream is downloaded (seconds), if bounded.
    private let readAhead: Double?

    /// The audio stream to decode in place of decodebin3's default, by GStreamer's id.
    private let audioStreamID: String?

    /// Opens `uri` and waits up to `timeout` seconds for its first pictures and sound
    /// (GStreamer's preroll); throws GStreamer's error when it cannot. An adaptive stream's
    /// variants are kept at or below `maximumBitrate` bits/s when it is given, and its
    /// segments downloaded at most `readAhead` seconds ahead of the decoders (GStreamer's
    /// adaptive demuxers go 30 s ahead by default). With `audioStreamID` (an id of
    /// ``collection`` from an earlier open of the same input), that audio stream is decoded
    /// from the start instead of the default one.
    public init(uri: String, streams: Streams, timeout: Double = 15, maximumBitrate: Int? = nil, readAhead: Double? = nil,
                audioStreamID: String? = nil) throws(GStreamerError) {
        _ = GStreamer.initialised
        self.maximumBitrate = maximumBitrate
        self.readAhead = readAhead
        self.audioStreamID = audioStreamID
        guard let pipeline = gst_pipeline_new("reel"), let bus = gst_element_get_bus(pipeline) else { throw GStreamerError("cannot make a pipeline") }
        self.pipeline = pipeline
        self.bus = bus
        wanted = streams
        guard let source = gst_element_factory_make("uridecodebin3", "source") else {
            throw GStreamerError("no uridecodebin3 element (GStreamer's base plug-ins, 1.22 or later)")
        }
        self.source = source
        reel_g_object_set_string(source, "uri", uri)
        // A network input's buffer reports how full it is (BUFFERING messages); the player's
        // shell, not GStreamer, still decides when playback waits for it.
        if !uri.lowercased().hasPrefix("file:") { reel_g_object_set_boolean(source, "use-buffering", 1) }
        gst_bin_add(reel_gst_bin(pipeline), source)
        reel_gst_connect_pad_added(source, { element, pad, context in
            guard let pad, let context else { return }
            Unmanaged<GStreamerDecoder>.fromOpaque(context).takeUnretainedValue().link(pad)
        }, Unmanaged.passUnretained(self).toOpaque())
        if audioStreamID != nil {
            reel_gst_connect_select_stream(source, { _, _, stream, context in
                guard let stream, let context else { return -1 }
                return Unmanaged<GStreamerDecoder>.fromOpaque(context).takeUnretainedValue().selects(stream)
            }, Unmanaged.passUnretained(self).toOpaque())
        }
        reel_gst_connect_deep_element_added(pipeline, { _, _, element, context in
            guard let element, let context else { return }
            Unmanaged<GStreamerDecoder>.fromOpaque(context).takeUnretainedValue().noteDecoder(element)
        }, Unmanaged.passUnretained(self).toOpaque())
        try start(timeout: timeout)
    }

    deinit {
        gst_element_set_state(pipeline, GST_STATE_NULL)
        gst_object_unref(UnsafeMutableRawPointer(bus))
        gst_object_unref(UnsafeMutableRawPointer(pipeline))
    }

    /// Opens the input (PAUSED), waits for the decoder's pads of the streams asked for
    /// that the input has (its stream collection says which), for the first buffers at
    /// every sink (the preroll), then plays. A pipeline has nothing to preroll until the
    /// pads appear, so the state alone says nothing.
    private func start(timeout: Double) throws(GStreamerError) {
        let deadline = Date().addingTimeInterval(timeout)
        if gst_element_set_state(pipeline, GST_STATE_PAUSED) == GST_STATE_CHANGE_FAILURE { try failure("cannot open") }
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
            let linked = lock.withLock { Streams(video: videoSink != nil, audio: audioSink != nil) }
            if let present, linked.isSuperset(of: present.intersection(wanted)) {
                if present.isDisjoint(with: wanted) { throw GStreamerError(wanted == .audio ? "no audio stream" : wanted == .video ? "no video stream" : "no audio or video stream", kind: .noStreams) }
                break
            }
            guard Date() < deadline else {
                let stage = present.map { "gave no decoded \($0.intersection(wanted).subtracting(linked) == .audio ? "audio" : "video")" } ?? "listed no streams"
                throw GStreamerError("GStreamer \(stage) within \(MediaTime.formatSeconds(timeout)) s", kind: .timedOut)
            }
            // Every message, told apart by its exact type: a mask of extended types (the
            // stream collection is one) lets others through.
            guard let message = gst_bus_timed_pop(bus, 20_000_000) else { continue }
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
        let described = latestCollection.map(Self.describe) ?? []
        lock.withLock { collection = described }
        decodes = lock.withLock { Streams(video: videoSink != nil, audio: audioSink != nil) }
        if gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE { try failure("cannot play") }
    }

    /// A stream of the input, as GStreamer's stream collection lists it.
    public struct Stream: Sendable {
        /// GStreamer's stream id, by which it is selected.
        public var id: String
        /// Video, audio or subtitles.
        public var type: MediaType
        /// FFmpeg's name for the codec (`h264`, `aac`).
        public var codec: String
        /// The ISO 639-2 (bibliographic) code, as FFmpeg gives it (`eng`, `fre`).
        public var language: String?
        /// The stream's title, when the input gives one.
        public var title: String?
        /// Whether the input marks it to be played by default.
        public var isDefault: Bool
        /// The picture's width, for video, as the stream's format states it.
        public var width: Int?
        /// The picture's height, for video.
        public var height: Int?
        /// Samples per second, for audio.
        public var sampleRate: Int?
        /// Channels, for audio.
        public var channels: Int?
    }

    /// The input's streams, in the order of its stream collection (set once it is open).
    public private(set) var collection: [Stream] = []
    /// The id of the stream each decoded pad carries now, by type.
    private var playingIDs: [MediaType: String] = [:]

    /// The id of the `type` stream decoded now, if any.
    public func playingStream(_ type: MediaType) -> String? { lock.withLock { playingIDs[type] } }

    /// The input's own metadata (tags of global scope: `title`, `artist`…), by FFmpeg's
    /// names for them, as far as GStreamer read them while opening.
    public private(set) var metadata: [String: String] = [:]

    /// GStreamer's tags that FFmpeg's format metadata has, by FFmpeg's name.
    private static let metadataTags: [(gstreamer: String, ffmpeg: String)] = [
        ("title", "title"), ("artist", "artist"), ("album", "album"), ("album-artist", "album_artist"), ("genre", "genre"),
        ("comment", "comment"), ("description", "description"), ("copyright", "copyright"), ("composer", "composer"),
    ]

    private func noteTags(_ message: UnsafeMutablePointer<GstMessage>) {
        var tags: UnsafeMutablePointer<GstTagList>?
        gst_message_parse_tag(message, &tags)
        guard let tags else { return }
        defer { gst_tag_list_unref(tags) }
        guard gst_tag_list_get_scope(tags) == GST_TAG_SCOPE_GLOBAL else { return }
        for (tag, name) in Self.metadataTags {
            var value: UnsafeMutablePointer<gchar>?
            guard gst_tag_list_get_string(tags, tag, &value) != 0, let value else { continue }
            metadata[name] = String(cString: value)
            g_free(value)
        }
    }

    /// The streams `collection` lists, in its order.
    private static func describe(_ collection: UnsafeMutablePointer<GstStreamCollection>) -> [Stream] {
        (0..<gst_stream_collection_get_size(collection)).compactMap { index in
            gst_stream_collection_get_stream(collection, index).flatMap(describe)
        }
    }

    private static func mediaType(of stream: UnsafeMutablePointer<GstStream>) -> MediaType {
        let kinds = gst_stream_get_stream_type(stream).rawValue
        return kinds & GST_STREAM_TYPE_VIDEO.rawValue != 0 ? .video
            : kinds & GST_STREAM_TYPE_AUDIO.rawValue != 0 ? .audio
            : kinds & GST_STREAM_TYPE_TEXT.rawValue != 0 ? .subtitle : .unknown
    }

    private static func describe(_ stream: UnsafeMutablePointer<GstStream>) -> Stream? {
        guard let id = gst_stream_get_stream_id(stream) else { return nil }
        var described = Stream(id: String(cString: id), type: mediaType(of: stream), codec: "gstreamer",
                               isDefault: gst_stream_get_stream_flags(stream).rawValue & GST_STREAM_FLAG_SELECT.rawValue != 0)
        if let tags = gst_stream_get_tags(stream) {
            defer { gst_tag_list_unref(tags) }
            func string(_ tag: UnsafePointer<CChar>) -> String? {
                var value: UnsafeMutablePointer<gchar>?
                guard gst_tag_list_get_string(tags, tag, &value) != 0, let value else { return nil }
                defer { g_free(value) }
                return String(cString: value)
            }
            // GStreamer's demuxers give ISO 639-1 (`en`); FFmpeg's, and Reel's tracks, 639-2.
            if let code = string(reel_gst_tag_language_code()), code != "und" {
                described.language = gst_tag_get_language_code_iso_639_2B(code).map { String(cString: $0) } ?? code
            }
            described.title = string(reel_gst_tag_title())
        }
        if let caps = gst_stream_get_caps(stream) {
            defer { gst_caps_unref(caps) }
            if let structure = gst_caps_get_structure(caps, 0) {
                func integer(_ field: String) -> Int? {
                    var value: gint = 0
                    return gst_structure_get_int(structure, field, &value) != 0 ? Int(value) : nil
                }
                described.codec = GStreamerCodecName.ffmpegName(mediaType: String(cString: gst_structure_get_name(structure)),
                                                                mpegVersion: integer("mpegversion"), layer: integer("layer"))
                (described.width, described.height) = (integer("width"), integer("height"))
                (described.sampleRate, described.channels) = (integer("rate"), integer("channels"))
            }
        }
        return described
    }

    /// Whether decodebin3 decodes `stream` of a new collection (streaming thread): the audio
    /// stream asked for and no other audio; 1 yes, 0 no, -1 decodebin3's own choice.
    private func selects(_ stream: UnsafeMutablePointer<GstStream>) -> gint {
        guard let audioStreamID, Self.mediaType(of: stream) == .audio, let id = gst_stream_get_stream_id(stream) else { return -1 }
        return String(cString: id) == audioStreamID ? 1 : 0
    }

    /// Decodes the streams `ids` (one of a type at most) in place of the ones decoded now,
    /// from where the pipeline has read: a flushing seek after it starts them at once.
    public func select(_ ids: [String]) throws(GStreamerError) {
        let names = ids.map { strdup($0) }
        var list: UnsafeMutablePointer<GList>?
        for name in names { list = g_list_append(list, name) }
        defer {
            g_list_free(list)
            names.forEach { free($0) }
        }
        guard let event = gst_event_new_select_streams(list), gst_element_send_event(source, event) != 0 else {
            throw GStreamerError("cannot select streams \(ids.joined(separator: ", "))")
        }
        lock.withLock {
            for stream in collection where ids.contains(stream.id) { playingIDs[stream.type] = stream.id }
        }
    }

    /// The error on the bus, or `fallback` when there is none.
    private func failure(_ fallback: String) throws(GStreamerError) -> Never {
        try checkBus()
        throw GStreamerError(fallback)
    }

    /// How full a network input's buffer is (0–100) when GStreamer last said so, until taken.
    private var bufferingPercent: Int?

    /// The buffer's fill level GStreamer reported since the last call, if it did (network
    /// inputs only).
    public func takeBufferingProgress() -> Int? {
        // An error found on the way goes back on the bus, for the frames' polls to throw.
        if let error = popBusUntilError() { gst_bus_post(bus, error) }
        return lock.withLock {
            defer { bufferingPercent = nil }
            return bufferingPercent
        }
    }

    /// Pops the bus up to its first error, which it returns, noting the buffer's fill
    /// level on the way, and the input's tags while opening (`notingTags`); other messages
    /// are dropped (nothing else reads the bus while playing, and a bus nobody pops keeps
    /// every message).
    private func popBusUntilError(notingTags: Bool = false) -> UnsafeMutablePointer<GstMessage>? {
        let wanted = GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_BUFFERING.rawValue | (notingTags ? GST_MESSAGE_TAG.rawValue : 0)
        while let message = gst_bus_pop_filtered(bus, GstMessageType(rawValue: wanted)) {
            let type = reel_gst_message_type(message)
            if type == GST_MESSAGE_ERROR { return message }
            if type == GST_MESSAGE_TAG { noteTags(message) } else { noteBuffering(message) }
            gst_message_unref(message)
        }
        return nil
    }

    private func noteBuffering(_ message: UnsafeMutablePointer<GstMessage>) {
        var percent: gint = 0
        gst_message_parse_buffering(message, &percent)
        lock.withLock { bufferingPercent = Int(percent) }
    }

    /// Throws the first error posted on the bus, if any.
    private func checkBus() throws(GStreamerError) {
        guard let message = popBusUntilError() else { return }
        defer { gst_message_unref(message) }
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(message, &error, &debug)
        defer {
            if let error { g_error_free(error) }
            g_free(debug)
        }
        var kind = GStreamerError.Kind.other
        if let error {
            let domain = error.pointee.domain, code = error.pointee.code
            if domain == gst_resource_error_quark() {
                switch code {
                case Int32(GST_RESOURCE_ERROR_NOT_FOUND.rawValue): kind = .notFound
                case Int32(GST_RESOURCE_ERROR_NOT_AUTHORIZED.rawValue): kind = .notAuthorized
                case Int32(GST_RESOURCE_ERROR_OPEN_READ.rawValue), Int32(GST_RESOURCE_ERROR_READ.rawValue): kind = .cannotRead
                default: break
                }
            } else if domain == gst_stream_error_quark() || domain == gst_core_error_quark() {
                switch code {
                case Int32(GST_STREAM_ERROR_TYPE_NOT_FOUND.rawValue), Int32(GST_STREAM_ERROR_WRONG_TYPE.rawValue),
                     Int32(GST_STREAM_ERROR_DEMUX.rawValue), Int32(GST_STREAM_ERROR_FAILED.rawValue): kind = .notMedia
                case Int32(GST_STREAM_ERROR_CODEC_NOT_FOUND.rawValue), Int32(GST_CORE_ERROR_MISSING_PLUGIN.rawValue): kind = .missingPlugin
                default: break
                }
            }
        }
        throw GStreamerError(error.map { String(cString: $0.pointee.message) } ?? "error", debug: debug.map { String(cString: $0) }, kind: kind)
    }

    /// A decoded pad appeared (streaming thread): the first video and audio pads asked for
    /// get a converter and an appsink, the others a fakesink.
    private func link(_ pad: UnsafeMutablePointer<GstPad>) {
        guard let caps = gst_pad_get_current_caps(pad) ?? gst_pad_query_caps(pad, nil) else { return }
        defer { gst_caps_unref(caps) }
        guard let structure = gst_caps_get_structure(caps, 0) else { return }
        let kind = String(cString: gst_structure_get_name(structure))
        let branch: [String]
        let output: String?
        var isVideo = false
        lock.lock()
        // Each branch starts with a queue: without one, a CI run under full load twice saw
        // an open wait past its 15 s (the branch ran on decodebin3's own stream thread).
        if kind.hasPrefix("video/"), wanted.contains(.video), videoSink == nil {
            branch = ["queue", "videoconvert", "capsfilter", "appsink"]
            output = "video/x-raw,format=I420"
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
                lock.withLock { linkFailure = "no \(name) element" }
                return
            }
            elements.append(element)
        }
        for element in elements {
            gst_bin_add(reel_gst_bin(pipeline), element)
        }
        if let output, let capsfilter = elements.first(where: { elementName($0).hasPrefix("capsfilter") }), let filterCaps = gst_caps_from_string(output) {
            reel_g_object_set_caps(capsfilter, "caps", filterCaps)
            gst_caps_unref(filterCaps)
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
            lock.withLock { linkFailure = "cannot link \(elementName(upstream)) to \(elementName(downstream))" }
            return
        }
        for element in elements { gst_element_sync_state_with_parent(element) }
        guard let sinkPad = gst_element_get_static_pad(elements[0], "sink") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(sinkPad)) }
        if gst_pad_link(pad, sinkPad) != GST_PAD_LINK_OK {
            lock.withLock { linkFailure = "cannot link the decoder's \(kind) pad" }
            return
        }
        // Streams not decoded are remembered too: a selection keeps them, as it found them.
        let streamID = gst_pad_get_stream(pad).map { stream in
            defer { gst_object_unref(UnsafeMutableRawPointer(stream)) }
            return gst_stream_get_stream_id(stream).map { String(cString: $0) }
        } ?? nil
        let type: MediaType? = kind.hasPrefix("video/") ? .video : kind.hasPrefix("audio/") ? .audio : nil
        lock.withLock {
            if let type, playingIDs[type] == nil { playingIDs[type] = streamID }
            guard output != nil else { return }
            if isVideo { videoSink = sink } else { audioSink = sink }
        }
    }

    private func elementName(_ element: UnsafeMutablePointer<GstElement>) -> String {
        guard let name = gst_object_get_name(reel_gst_object(element)) else { return "?" }
        defer { g_free(name) }
        return String(cString: name)
    }

    /// The element decoding the video, as decodebin chose it from the registry by rank: its
    /// factory name (`avdec_h264`, `vah264dec`) and whether it decodes on hardware.
    public var videoDecoder: (name: String, isHardware: Bool)? { lock.withLock { chosenVideoDecoder } }
    private var chosenVideoDecoder: (name: String, isHardware: Bool)?

    /// The adaptive demuxer (`hlsdemux2`, `dashdemux2`) when the input is an adaptive stream.
    private var adaptiveDemuxer: UnsafeMutablePointer<GstElement>?

    /// The download bandwidth the adaptive demuxer measures (bits/s), for an adaptive stream.
    public var adaptiveBandwidth: Int? {
        guard let demuxer = lock.withLock({ adaptiveDemuxer }) else { return nil }
        return Int(reel_g_object_get_uint(UnsafeMutableRawPointer(demuxer), "current-bandwidth"))
    }

    /// An element was added somewhere in the pipeline (a streaming thread): the first video
    /// decoder and the adaptive demuxer are remembered; the demuxer gets the bit-rate cap
    /// and the read-ahead bound.
    private func noteDecoder(_ element: UnsafeMutablePointer<GstElement>) {
        guard let factory = gst_element_get_factory(element), let klass = gst_element_factory_get_metadata(factory, "klass") else { return }
        let kinds = String(cString: klass)
        if kinds.contains("Demuxer/Adaptive") {
            if let maximumBitrate { reel_g_object_set_uint(UnsafeMutableRawPointer(element), "max-bitrate", guint(clamping: maximumBitrate)) }
            if let readAhead, readAhead > 0 {
                let nanoseconds = guint64(min(readAhead, 3600) * 1e9)
                reel_g_object_set_uint64(UnsafeMutableRawPointer(element), "max-buffering-time", nanoseconds)
                reel_g_object_set_uint64(UnsafeMutableRawPointer(element), "high-watermark-time", nanoseconds)
            }
            lock.withLock { adaptiveDemuxer = element }
            return
        }
        guard kinds.contains("Decoder"), kinds.contains("Video"), let name = gst_object_get_name(reel_gst_object(UnsafeMutableRawPointer(factory))) else { return }
        defer { g_free(name) }
        let decoder = (String(cString: name), kinds.contains("Hardware"))
        lock.withLock { if chosenVideoDecoder == nil { chosenVideoDecoder = decoder } }
    }

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

    /// Goes to `seconds`: to the keyframe at or before it, or with `exact` to the frame
    /// shown at it (GStreamer decodes from the keyframe and drops what precedes).
    public func seek(to seconds: Double, exact: Bool) throws(GStreamerError) {
        // A keyframe seek snaps to the keyframe before: the segment then starts there, and
        // no picture before the target is clipped away.
        let flags = GST_SEEK_FLAG_FLUSH.rawValue | (exact ? GST_SEEK_FLAG_ACCURATE.rawValue : GST_SEEK_FLAG_KEY_UNIT.rawValue | GST_SEEK_FLAG_SNAP_BEFORE.rawValue)
        // Right after a stream selection decodebin3 may still be relinking its outputs and
        // refuse a seek (GStreamer 1.22, a few times in a hundred): asked again for a moment.
        let deadline = Date().addingTimeInterval(Self.seekRetryWindow)
        while gst_element_seek_simple(pipeline, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags), gint64(seconds * 1e9)) == 0 {
            try checkBus()
            guard Date() < deadline else { try failure("cannot seek to \(MediaTime.formatSeconds(seconds)) s") }
            usleep(10_000)
        }
    }

    /// How long a refused seek is asked again.
    static let seekRetryWindow = 1.0
}
