/// How to open an input.
public struct DemuxOptions: Sendable {
    /// Seconds that opening, or reading one packet, may block before giving up.
    /// `nil` waits for ever (a live source that may pause). Default 15 s.
    public var timeout: Double? = 15
    /// Force a container format by libavformat's short name (`sdp`, `mpegts`…).
    public var formatName: String?
    /// Options passed to libavformat and its protocols, e.g. `["rtsp_transport": "tcp"]`.
    public var formatOptions: [String: String] = [:]

    /// Options; a 15-second timeout, the format probed, no protocol options, unless told.
    public init(timeout: Double? = 15, formatName: String? = nil, formatOptions: [String: String] = [:]) {
        self.timeout = timeout
        self.formatName = formatName
        self.formatOptions = formatOptions
    }
}
