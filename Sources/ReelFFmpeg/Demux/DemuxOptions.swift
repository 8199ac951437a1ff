import ReelCore

/// How to open an input.
public struct DemuxOptions: Sendable {
    /// Seconds that opening, or reading one packet, may block before giving up; a read
    /// or the probe of the streams gives up after that long without a byte arriving (a
    /// live input's probe reads its media as it is sent). `nil` waits for ever (a live
    /// source that may pause). Default 15 s.
    public var timeout: Double? = 15
    /// Force a container format by libavformat's short name (`sdp`, `mpegts`…).
    public var formatName: String?
    /// Options passed to libavformat and its protocols, e.g. `["rtsp_transport": "tcp"]`.
    public var formatOptions: [String: String] = [:]

    /// In a live MPEG-TS input, pass each H.264/H.265 PES packet on as the whole picture
    /// it holds, rather than after the next picture's start (``forLiveInput()`` sets it).
    public var wholePicturePackets = false

    /// In a live HLS input, reload the playlist in step with the server's publishing
    /// rather than on FFmpeg's timer alone, so each segment is fetched soon after it is
    /// listed (``forLiveHLS()`` sets it).
    public var livePlaylistReloads = false

    /// Of an HLS master playlist's variants, play the highest whose `BANDWIDTH` is at most
    /// this (bits/s; the lowest when none is); nil for the highest of all.
    public var maximumVariantBitrate: Int?

    /// How a TLS server's certificate is checked; by default against the system's
    /// authorities (FFmpeg alone does not check).
    public var tls = TLSVerification()

    /// The protocol options that carry ``tls`` (FFmpeg's `tls_verify` and `ca_file`), for
    /// the input and every input it opens inside.
    var tlsOptions: [String: String] {
        var options = ["tls_verify": tls.isOn ? "1" : "0"]
        if tls.isOn, let authorities = tls.authorities { options["ca_file"] = authorities }
        return options
    }

    /// Options; a 15-second timeout, the format probed, no protocol options, unless told.
    public init(timeout: Double? = 15, formatName: String? = nil, formatOptions: [String: String] = [:]) {
        self.timeout = timeout
        self.formatName = formatName
        self.formatOptions = formatOptions
    }

    /// These options for a live input: half a second of probing, where the default (5 s)
    /// would sit between the camera and the screen. Options given already stay. The
    /// probe's size stays FFmpeg's: at 500 kB the FLV demuxer (RTMP) missed the video
    /// stream that nginx-rtmp sent.
    ///
    /// FFmpeg's `fflags nobuffer` (ffplay's low-latency advice) is not set: it throws away
    /// what the probe read, the GOP's keyframe with it, so the first picture waits for the
    /// next keyframe (a second on a camera's usual GOP). The player keeps those packets and
    /// goes from the newest keyframe to its target latency at once instead.
    public func forLiveInput() -> DemuxOptions {
        var options = self
        for (key, value) in Self.liveDefaults where options.formatOptions[key] == nil { options.formatOptions[key] = value }
        options.wholePicturePackets = true
        return options
    }

    /// These options for a live HLS playlist: a live input's, with reloads timed to the
    /// server's publishing (``livePlaylistReloads``).
    public func forLiveHLS() -> DemuxOptions {
        var options = forLiveInput()
        options.livePlaylistReloads = true
        return options
    }

    static let liveDefaults = ["analyzeduration": "500000"]
}
