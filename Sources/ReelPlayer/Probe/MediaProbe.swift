import ReelCore
import ReelFFmpeg

/// Describes inputs: container, chapters and streams, as `ffprobe` does.
public enum MediaProbe {
    /// Opens `url` (a path or any URL libavformat reads), describes it and closes it. A
    /// WHEP endpoint (``Player/Configuration/whepToken`` names its token) is received
    /// through GStreamer's `webrtcbin` until its first pictures and sound, and described as
    /// the server's answer negotiated it; the session is ended at once.
    ///
    /// - Throws: `InputError` with a message naming the input and the problem.
    public static func probe(_ url: String, options: DemuxOptions = DemuxOptions(), whepToken: String? = nil) async throws -> MediaInfo {
        try await BlockingThread.run(name: "reel.probe") {
            if let endpoint = WebRTCEndpoint(url), endpoint.role == .watch {
                return try GStreamerEngine(url: url, video: true, audio: true, timeout: options.timeout, tls: options.tls, webRTC: (whepToken, Player.Configuration().webRTCLatency)).info
            }
            return try Demuxer(url: url, options: options).info
        }
    }
}
