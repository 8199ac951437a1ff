import Foundation
import ReelPlayer

/// Called once when ReelRTP is loaded (by the constructor in ReelRTPLoader): an `.sdp`
/// file a player opens is received by Reel's RTP receiver rather than FFmpeg's RTP
/// demuxer, and an `rtsp://` stream of one H.264 or H.265 video by Reel's RTSP client
/// and that receiver (anything else on RTSP stays FFmpeg's). Package-visible so that the
/// optimiser keeps the C symbol.
@_cdecl("reel_rtp_register_sources")
package func registerRTPSources() {
    // The receiver's jitter allowance: the player's live target, at most its default.
    let jitterAllowance: @Sendable (Double?) -> Double? = { liveTarget in liveTarget.map { min($0, RTPReceiver.Configuration.defaultLatency) } }
    PlaybackSources.register(PlaybackSourceProvider(
        claims: { url in url.lowercased().hasSuffix(".sdp") && FileManager.default.fileExists(atPath: url) },
        open: { url, options, liveTarget in
            try RTPPlaybackSource(sdpPath: url, timeout: options.timeout, latency: jitterAllowance(liveTarget))
        }))
    PlaybackSources.register(PlaybackSourceProvider(
        claims: { url in url.lowercased().hasPrefix("rtsp://") }, alsoReadByFFmpeg: true,
        open: { url, options, liveTarget in
            try RTSPPlayback.open(url, options: options, latency: jitterAllowance(liveTarget))
        }))
}
