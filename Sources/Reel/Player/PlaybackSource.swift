import Foundation
import ReelCore
import ReelFFmpeg

/// Where a playback session's packets come from: a file or URL through FFmpeg's demuxer,
/// or a stream Reel receives itself (an RTP session from an SDP).
protocol PlaybackSource: AnyObject {
    var url: String { get }
    var info: MediaInfo { get }
    func bestStream(of type: MediaType) -> Int?
    func makeDecoder(streamIndex: Int, options: DecoderOptions, framePool: FramePool) throws -> Decoder
    /// The next packet of any stream; nil at the end.
    func readPacket() throws -> Packet?
    func seek(to time: MediaTime) throws
    /// Wakes a blocked read, which then fails.
    func cancel()
}

extension Demuxer: PlaybackSource {
    func makeDecoder(streamIndex: Int, options: DecoderOptions, framePool: FramePool) throws -> Decoder {
        try Decoder(demuxer: self, streamIndex: streamIndex, options: options, framePool: framePool)
    }

    func cancel() { interrupt.cancel() }
}

enum PlaybackSources {
    /// An `.sdp` file is received by Reel's RTP receiver; anything else goes to FFmpeg.
    /// `interrupt` cancels FFmpeg's open and reads from any thread. `liveTarget`, the
    /// latency a live player keeps, bounds the receiver's own (its jitter allowance and
    /// batching) so that it does not hold pictures longer than the player means to.
    static func open(_ url: String, options: DemuxOptions, interrupt: InterruptController, liveTarget: Double? = nil) throws -> any PlaybackSource {
        if url.lowercased().hasSuffix(".sdp"), FileManager.default.fileExists(atPath: url) {
            return try RTPPlaybackSource(sdpPath: url, timeout: options.timeout, latency: liveTarget.map { min($0, RTPReceiver.Configuration.defaultLatency) })
        }
        return try Demuxer(url: url, options: options, interrupt: interrupt)
    }
}
