/// Which inputs are live: what ``LiveMode/auto`` decides.
public enum LiveInputs {
    /// Protocols that only carry live media.
    public static let liveSchemes: Set<String> = ["rtmp", "rtmps", "rtmpt", "rtmpe", "rtsp", "rtsps", "srt", "udp", "rtp", "tcp", "whep", "whip"]
    /// Network protocols that carry files and live streams alike: live when the input has
    /// no duration and no size (an endless MPEG-TS over HTTP), or is a playlist without a
    /// duration (HLS without ENDLIST). A file served with its size is not live even when
    /// its duration is unknown (an MPEG-TS file probed briefly).
    public static let networkSchemes: Set<String> = ["http", "https", "hls", "ftp", "rist"]

    /// Whether `url` is live by its protocol alone (known before opening it): a live
    /// scheme, an SDP file (raw RTP), or a WHEP endpoint (`https://…/whep`).
    public static func isLive(url: String) -> Bool {
        if schemes(of: url).contains(where: liveSchemes.contains) || WebRTCEndpoint.isEndpoint(url) { return true }
        return url.lowercased().hasSuffix(".sdp")
    }

    /// Playlist formats whose size is the playlist's, not the media's.
    static let playlistFormats: Set<String> = ["hls", "dash"]

    /// Whether `url`, opened, is live: by its protocol, or a network input with no
    /// duration and no size (or a playlist with no duration). `format` is FFmpeg's name of
    /// the container.
    public static func isLive(url: String, duration: Double?, size: Int64? = nil, format: String = "") -> Bool {
        if isLive(url: url) { return true }
        guard duration == nil, schemes(of: url).contains(where: networkSchemes.contains) else { return false }
        return size == nil || playlistFormats.contains(format)
    }

    /// The URL's protocols in lower case, FFmpeg's nested ones (`hls+http`) each; none
    /// for a path.
    static func schemes(of url: String) -> [String] {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return [] }
        let scheme = url[..<colon].lowercased()
        guard scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) else { return [] }
        return scheme.split(separator: "+").map(String.init)
    }
}
