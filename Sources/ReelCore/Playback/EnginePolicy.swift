import Foundation

/// The engines a player decodes with.
public enum PlaybackEngineKind: String, Sendable, CaseIterable, Codable {
    /// FFmpeg's libavformat and libavcodec, read and decoded on Reel's own threads (or Reel's
    /// RTP receiver for an SDP).
    case ffmpeg
    /// GStreamer's `uridecodebin3`, whose plug-ins choose the demuxer and decoder (adaptive
    /// demuxers and hardware decoders included).
    case gstreamer
}

/// Which engine Reel's rules pick for a resource, and why.
public struct EngineDecision: Sendable, Equatable, CustomStringConvertible {
    /// The engine.
    public var engine: PlaybackEngineKind
    /// Why, in a sentence a user reads (`reel probe` prints it).
    public var reason: String

    /// A decision.
    public init(_ engine: PlaybackEngineKind, because reason: String) {
        self.engine = engine
        self.reason = reason
    }

    public var description: String { "\(engine.rawValue): \(reason)" }
}

/// Reel's rules for choosing an engine per resource, as SGPlayer's decoder selection picks
/// one (KSPlayer: the platform's player first, FFmpeg on failure):
///
/// 1. an SDP file goes to the FFmpeg engine, whose source for it is Reel's own RTP receiver;
/// 2. a live HLS master playlist (its first variant's media playlist has no end) goes to
///    FFmpeg, whose engine plays live: catch-up to the target latency, reconnect and
///    recording, which the GStreamer engine has not; it plays one variant and keeps it;
/// 3. any other adaptive manifest with several variants, an HLS master playlist listing
///    two or more streams or any DASH MPD, goes to GStreamer, whose `hlsdemux2` and
///    `dashdemux2` switch variants as the bandwidth changes (FFmpeg's demuxers pick one
///    and keep it);
/// 4. everything else goes to FFmpeg.
///
/// Pure: the caller reads the resource's first bytes when ``needsHead(_:)`` says the rule
/// depends on them, and an HLS master playlist's first variant's when
/// ``firstVariantURL(in:of:)`` names one.
public enum EnginePolicy {
    /// How much of a manifest is read to decide.
    public static let headLimit = 256 * 1024

    /// Whether the decision for `url` depends on its first bytes (a playlist or manifest).
    public static func needsHead(_ url: String) -> Bool {
        let path = pathOf(url).lowercased()
        return path.hasSuffix(".m3u8") || path.hasSuffix(".m3u") || path.hasSuffix(".mpd")
    }

    /// The engine for `url`, given its first bytes when they were read, and for an HLS
    /// master playlist with several variants, the first bytes of its first variant's media
    /// playlist (``firstVariantURL(in:of:)``), which say whether the stream is live.
    public static func decide(_ url: String, head: Data? = nil, firstVariantHead: Data? = nil) -> EngineDecision {
        if WebRTCEndpoint(url)?.role == .watch {
            return EngineDecision(.gstreamer, because: "a WHEP endpoint (WebRTC): GStreamer's webrtcbin receives it, which FFmpeg cannot")
        }
        let path = pathOf(url).lowercased()
        if path.hasSuffix(".sdp") {
            return EngineDecision(.ffmpeg, because: "an SDP: Reel's own RTP receiver, the FFmpeg engine's source for raw RTP")
        }
        if let text = head.flatMap(manifestText) {
            if isDASH(text) {
                return EngineDecision(.gstreamer, because: "a DASH manifest: GStreamer's dashdemux2 switches representations with the bandwidth")
            }
            let variants = hlsVariantCount(text)
            if variants >= 2, liveHLS(head: head, firstVariantHead: firstVariantHead) == .masterPlaylist {
                return EngineDecision(.ffmpeg, because: "a live HLS master playlist with \(variants) variants: FFmpeg plays it live (catch-up, reconnect, recording), "
                                          + "which the GStreamer engine cannot; it keeps the variant it chose rather than switching with the bandwidth")
            }
            if variants >= 2 {
                return EngineDecision(.gstreamer, because: "an HLS master playlist with \(variants) variants: GStreamer's hlsdemux2 switches between them with the bandwidth")
            }
            if text.hasPrefix("#EXTM3U") || text.hasPrefix("\u{FEFF}#EXTM3U") {
                return EngineDecision(.ffmpeg, because: variants == 1 ? "an HLS master playlist with one variant: nothing to adapt, FFmpeg plays it"
                                                                       : "an HLS media playlist: nothing to adapt, FFmpeg plays it")
            }
        }
        return EngineDecision(.ffmpeg, because: "the default engine: FFmpeg reads the container and decodes on Reel's threads")
    }

    /// Live HLS, known from a playlist's first bytes before it is opened (before its
    /// missing duration says so).
    public enum LiveHLS: Sendable {
        /// A media playlist without an end.
        case mediaPlaylist
        /// A master playlist whose first variant's media playlist has no end.
        case masterPlaylist
    }

    /// Whether `head` is a live HLS stream's: a media playlist read whole and without an
    /// end, or a master whose first variant's (`firstVariantHead`) is one.
    public static func liveHLS(head: Data?, firstVariantHead: Data?) -> LiveHLS? {
        func isLive(_ head: Data?) -> Bool {
            guard let head, head.count < headLimit, let text = String(data: head, encoding: .utf8) else { return false }
            return LiveHLSPlaylist.isLiveMediaPlaylist(text)
        }
        if isLive(head) { return .mediaPlaylist }
        return isLive(firstVariantHead) ? .masterPlaylist : nil
    }

    /// A manifest's first bytes as text.
    private static func manifestText(_ head: Data) -> String? {
        String(data: head.prefix(headLimit), encoding: .utf8) ?? String(data: head.prefix(headLimit), encoding: .isoLatin1)
    }

    /// The media playlist of the first variant of the HLS master playlist `head` (of
    /// `url`), resolved against `url`, when the master lists two or more variants: the
    /// playlist that says whether the stream is live (a master does not).
    public static func firstVariantURL(in head: Data, of url: String) -> String? {
        guard let text = manifestText(head), hlsVariantCount(text) >= 2 else { return nil }
        return firstURI(in: text, of: url)
    }

    /// The first URI line of the HLS playlist `text` (a master's first variant, a media
    /// playlist's first segment; a rendition's URI is an attribute, not a line), resolved
    /// against the playlist's `url` (a URL or a file path).
    public static func firstURI(in text: String, of url: String) -> String? {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let uri = lines.first(where: { !$0.isEmpty && !$0.hasPrefix("#") }) else { return nil }
        guard url.contains("://") else {
            return uri.hasPrefix("/") ? uri : URL(fileURLWithPath: url).deletingLastPathComponent().appendingPathComponent(uri).path
        }
        return URL(string: uri, relativeTo: URL(string: url))?.absoluteString
    }

    /// The variant streams an HLS master playlist lists (`#EXT-X-STREAM-INF`; I-frame-only
    /// streams are not variants one plays).
    static func hlsVariantCount(_ text: String) -> Int {
        hlsVariants(text).count
    }

    /// An HLS master playlist's variants: each one's `BANDWIDTH` (bits/s) and, when given,
    /// the picture height of its `RESOLUTION`.
    public static func hlsVariants(_ text: String) -> [(bandwidth: Int, height: Int?)] {
        guard text.hasPrefix("#EXTM3U") || text.hasPrefix("\u{FEFF}#EXTM3U") else { return [] }
        return text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.map { line in
            let attributes = attributeList(line.dropFirst("#EXT-X-STREAM-INF:".count))
            let bandwidth = attributes["BANDWIDTH"].flatMap { Int($0) } ?? 0
            let height = attributes["RESOLUTION"].flatMap { $0.split(separator: "x").last }.flatMap { Int($0) }
            return (bandwidth, height)
        }
    }

    /// An adaptive manifest's variants, HLS or DASH.
    public static func variants(_ text: String) -> [(bandwidth: Int, height: Int?)] {
        isDASH(text) ? dashVariants(text) : hlsVariants(text)
    }

    /// A DASH manifest's representations: each one's `bandwidth` (bits/s) and, when it
    /// gives one, its `height`.
    public static func dashVariants(_ text: String) -> [(bandwidth: Int, height: Int?)] {
        text.components(separatedBy: "<Representation").dropFirst().compactMap { element in
            guard let first = element.first, first.isWhitespace || first == ">" else { return nil }
            let tag = element.prefix { $0 != ">" }
            func attribute(_ name: String) -> Int? {
                guard let start = tag.range(of: " \(name)=\"") ?? tag.range(of: "\n\(name)=\"") ?? tag.range(of: "\t\(name)=\"") else { return nil }
                return Int(tag[start.upperBound...].prefix { $0 != "\"" })
            }
            return (attribute("bandwidth") ?? 0, attribute("height"))
        }
    }

    /// An HLS attribute list (`NAME=value,NAME="quoted, value"`) as a dictionary.
    static func attributeList(_ text: Substring) -> [String: Substring] {
        var attributes: [String: Substring] = [:]
        var rest = text
        while let equals = rest.firstIndex(of: "=") {
            let name = String(rest[..<equals]).trimmingCharacters(in: .whitespaces)
            var value = rest[rest.index(after: equals)...]
            if value.first == "\"" {
                value = value.dropFirst()
                let end = value.firstIndex(of: "\"") ?? value.endIndex
                attributes[name] = value[..<end]
                rest = value[end...].drop { $0 != "," }.dropFirst()
            } else {
                let end = value.firstIndex(of: ",") ?? value.endIndex
                attributes[name] = value[..<end]
                rest = value[end...].dropFirst()
            }
        }
        return attributes
    }

    /// The highest bit rate an adaptive stream may use so that its pictures are at most
    /// `maximumHeight` rows: the largest `BANDWIDTH` of the variants that fit (the lowest
    /// variant's when none fits); nil when the playlist says nothing of sizes.
    public static func bitrateCap(forHeight maximumHeight: Int, variants: [(bandwidth: Int, height: Int?)]) -> Int? {
        let sized = variants.compactMap { variant in variant.height.map { (variant.bandwidth, $0) } }
        guard !sized.isEmpty else { return nil }
        return sized.filter { $0.1 <= maximumHeight }.map(\.0).max() ?? sized.map(\.0).min()
    }

    /// Whether `text` is an MPEG-DASH manifest (an `MPD` root element).
    static func isDASH(_ text: String) -> Bool {
        text.range(of: "<MPD[\\s>]", options: .regularExpression) != nil
    }

    /// The path part of a URL (without query or fragment), or the text itself for a path.
    private static func pathOf(_ url: String) -> String {
        guard url.contains("://"), let components = URLComponents(string: url) else { return url }
        return components.path
    }
}
