import Foundation

/// A live HLS media playlist as a player reloading it at the live edge reads it: its
/// segments' names, the newest one's duration, and whether the stream has ended.
///
/// FFmpeg's HLS demuxer reloads a live playlist one segment's duration after the last
/// load, so where that falls against the server's publishing is chance: a segment waited
/// between nothing and a whole duration for its fetch (0.9 s of 1 s fragments from
/// nginx-rtmp, measured). A reload that comes a little early and waits for the next
/// segment lands right after it is published, and stays there.
public struct LiveHLSPlaylist: Sendable, Equatable {
    /// Each segment's name: the last component of its URI's path.
    public let segmentNames: [String]
    /// Each segment's `#EXTINF` duration in seconds.
    public let segmentDurations: [Double]
    /// The newest segment's `#EXTINF` duration in seconds.
    public var newestSegmentDuration: Double? { segmentDurations.last }
    /// `#EXT-X-TARGETDURATION` in seconds.
    public let targetDuration: Double?
    /// Whether the playlist says no segment will follow (`#EXT-X-ENDLIST`).
    public let hasEnded: Bool

    /// The playlist `text` holds; nil when it is no HLS media playlist (a master playlist,
    /// or no `#EXTM3U` first line).
    public init?(_ text: String) {
        var lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }[...]
        guard lines.popFirst() == "#EXTM3U" else { return nil }
        var names: [String] = []
        var durations: [Double] = []
        var target: Double?
        var ended = false
        var pendingDuration: Double?
        for line in lines where !line.isEmpty {
            if line.hasPrefix("#EXT-X-STREAM-INF:") { return nil }
            if let value = Self.value(of: "#EXTINF:", in: line) {
                // A duration that is no length (nan, inf, negative) would time the next reload by it.
                pendingDuration = Double(value.prefix { $0 != "," }.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            } else if let value = Self.value(of: "#EXT-X-TARGETDURATION:", in: line) {
                target = Double(value)
            } else if line.hasPrefix("#EXT-X-ENDLIST") {
                ended = true
            } else if !line.hasPrefix("#"), let duration = pendingDuration {
                names.append(Self.name(ofURI: line))
                durations.append(duration)
                pendingDuration = nil
            }
        }
        segmentNames = names
        segmentDurations = durations
        targetDuration = target
        hasEnded = ended
    }

    /// Whether the newest segment is not among those already `opened` (by name): a reload
    /// that finds it has something new to play.
    public func hasNewSegment(besides opened: Set<String>) -> Bool {
        guard let newest = segmentNames.last else { return false }
        return !opened.contains(newest)
    }

    /// The last path component of a segment URI, without query or fragment, so that a
    /// playlist line and the absolute URL a demuxer opens for it compare equal.
    public static func name(ofURI uri: String) -> String {
        let path = uri.prefix { $0 != "?" && $0 != "#" }
        return String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? path[...])
    }

    /// The duration to give the newest segment in the text handed to a demuxer that times
    /// its next reload by it: the usual segment's (the median, so that one long segment
    /// does not delay the next reload), less a lead that makes the reload come early and wait
    /// for the next segment. When the last reload did not have to wait, how late it came is
    /// unknown and the lead is half a segment, so that the reload after it is early; once a
    /// reload waited, a fifth of a segment (0.2 to 0.5 s) keeps it early despite the
    /// demuxer's 100 ms waits and the server's jitter.
    public func reloadDuration(afterWaiting waited: Bool) -> Double? {
        guard let newest = newestSegmentDuration else { return nil }
        let usual = min(newest, segmentDurations.sorted()[segmentDurations.count / 2])
        let lead = waited ? min(max(usual / 5, 0.2), 0.5) : usual / 2
        return max(usual - lead, usual / 10)
    }

    /// `text` with its newest segment's `#EXTINF` duration set to `seconds`; the rest of
    /// the text is kept byte for byte.
    public static func settingNewestSegmentDuration(of text: String, to seconds: Double) -> String {
        guard let range = text.range(of: "#EXTINF:", options: .backwards) else { return text }
        let valueEnd = text[range.upperBound...].firstIndex { $0 == "," || $0.isNewline } ?? text.endIndex
        return text.replacingCharacters(in: range.upperBound..<valueEnd, with: String(format: "%.3f", seconds))
    }

    /// Whether `text` is a whole HLS media playlist that may still grow: no
    /// `#EXT-X-ENDLIST`, no `#EXT-X-PLAYLIST-TYPE:VOD`. A master playlist does not say (its
    /// variants do).
    public static func isLiveMediaPlaylist(_ text: String) -> Bool {
        guard let playlist = LiveHLSPlaylist(text) else { return false }
        return !playlist.hasEnded && !text.contains("#EXT-X-PLAYLIST-TYPE:VOD")
    }

    private static func value(of tag: String, in line: String) -> Substring? {
        line.hasPrefix(tag) ? line.dropFirst(tag.count) : nil
    }
}
