import Foundation
import ReelPlayer

/// Called once when ReelRTP is loaded (by the constructor in ReelRTPLoader): an `.sdp`
/// file a player opens is received by Reel's RTP receiver rather than FFmpeg's RTP
/// demuxer. Package-visible so that the optimiser keeps the C symbol.
@_cdecl("reel_rtp_register_sources")
package func registerRTPSources() {
    PlaybackSources.register(PlaybackSourceProvider(
        claims: { url in url.lowercased().hasSuffix(".sdp") && FileManager.default.fileExists(atPath: url) },
        open: { url, options, liveTarget in
            try RTPPlaybackSource(sdpPath: url, timeout: options.timeout,
                                  latency: liveTarget.map { min($0, RTPReceiver.Configuration.defaultLatency) })
        }))
}
