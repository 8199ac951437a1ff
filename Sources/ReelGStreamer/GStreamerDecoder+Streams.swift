import CGStreamer
import Foundation
import ReelCore

// The input's streams as GStreamer's stream collection lists them, their tags, and which
// of them are decoded.
extension GStreamerDecoder {
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

    /// The id of the `type` stream decoded now, if any.
    public func playingStream(_ type: MediaType) -> String? { lock.withLock { playingIDs[type] } }

    /// GStreamer's tags that FFmpeg's format metadata has, by FFmpeg's name.
    private static let metadataTags: [(gstreamer: String, ffmpeg: String)] = [
        ("title", "title"), ("artist", "artist"), ("album", "album"), ("album-artist", "album_artist"), ("genre", "genre"),
        ("comment", "comment"), ("description", "description"), ("copyright", "copyright"), ("composer", "composer"),
    ]

    func noteTags(_ message: UnsafeMutablePointer<GstMessage>) {
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

    /// How long an open waits past the preroll for the tags of audio streams it does not decode.
    static let tagWait = 1.0

    /// Waits until every audio stream `collection` lists has its tags (its language), when
    /// it lists several, or until `deadline`. A stream's tags come with its first data, so
    /// one not decoded may get them after the decoded ones have prerolled (seen under load:
    /// the second language missing, and a player asked for French played English). A choice
    /// among several audio streams needs them; a single one needs none.
    static func awaitAudioTags(of collection: UnsafeMutablePointer<GstStreamCollection>, until deadline: Date) {
        let audio = (0..<gst_stream_collection_get_size(collection)).compactMap { gst_stream_collection_get_stream(collection, $0) }
            .filter { mediaType(of: $0) == .audio }
        func hasTags(_ stream: UnsafeMutablePointer<GstStream>) -> Bool {
            guard let tags = gst_stream_get_tags(stream) else { return false }
            gst_tag_list_unref(tags)
            return true
        }
        while audio.count > 1, audio.contains(where: { !hasTags($0) }), Date() < deadline { usleep(5_000) }
    }

    /// The streams `collection` lists, in its order.
    static func describe(_ collection: UnsafeMutablePointer<GstStreamCollection>) -> [Stream] {
        (0..<gst_stream_collection_get_size(collection)).compactMap { index in
            gst_stream_collection_get_stream(collection, index).flatMap(describe)
        }
    }

    static func mediaType(of stream: UnsafeMutablePointer<GstStream>) -> MediaType {
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
    func selects(_ stream: UnsafeMutablePointer<GstStream>) -> gint {
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
}
