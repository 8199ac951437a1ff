import Foundation
import ReelCore
import ReelFFmpeg

/// Where a playback session's packets come from: a file or URL through FFmpeg's demuxer,
/// or a stream Reel receives itself (an RTP session from an SDP).
package protocol PlaybackSource: AnyObject {
    var url: String { get }
    var info: MediaInfo { get }
    func bestStream(of type: MediaType) -> Int?
    func makeDecoder(streamIndex: Int, options: DecoderOptions, framePool: FramePool) throws -> Decoder
    /// The next packet of any stream; nil at the end.
    func readPacket() throws -> Packet?
    func seek(to time: MediaTime) throws
    /// Wakes a blocked read, which then fails.
    func cancel()
    /// Whether a live player opens it again when it ends or fails: a server's stream, not
    /// a raw RTP session (whose receiver follows a sender's restart itself, and whose end
    /// is the silence of `--timeout`).
    var reopensWhenLost: Bool { get }
    /// FFmpeg's demuxer behind it, if any: its streams are what a recording copies, its
    /// subtitles what the shell draws, its variants what it may leave unread.
    var demuxer: Demuxer? { get }
    /// The packets it keeps for going back (``TimeshiftSource``), if it keeps them.
    var timeshift: TimeshiftRing? { get }
}

extension PlaybackSource {
    package var demuxer: Demuxer? { nil }
    package var timeshift: TimeshiftRing? { nil }
}

extension Demuxer: PlaybackSource {
    package func makeDecoder(streamIndex: Int, options: DecoderOptions, framePool: FramePool) throws -> Decoder {
        try Decoder(demuxer: self, streamIndex: streamIndex, options: options, framePool: framePool)
    }

    package func cancel() { interrupt.cancel() }

    package var reopensWhenLost: Bool { true }

    package var demuxer: Demuxer? { self }
}

/// Inputs that a product linked beside the player receives itself, so that the player
/// reaches them without importing it: ReelRTP registers Reel's RTP receiver for `.sdp`
/// files when it is loaded (as GStreamer's plug-ins and FFmpeg's protocols register).
package struct PlaybackSourceProvider: Sendable {
    /// Whether this provider, rather than an engine, opens `url`.
    package let claims: @Sendable (_ url: String) -> Bool
    /// Opens a claimed input; `liveTarget` is the latency a live player keeps. Nil when,
    /// having looked, the provider leaves it to FFmpeg after all (an RTSP presentation
    /// with sound).
    package let open: @Sendable (_ url: String, _ options: DemuxOptions, _ liveTarget: Double?) throws -> (any PlaybackSource)?

    /// FFmpeg reads these inputs too (RTSP): the provider is passed over when the player
    /// records, as a recording remuxes the packets of FFmpeg's demuxer.
    package let alsoReadByFFmpeg: Bool

    package init(claims: @escaping @Sendable (String) -> Bool, alsoReadByFFmpeg: Bool = false,
                 open: @escaping @Sendable (String, DemuxOptions, Double?) throws -> (any PlaybackSource)?) {
        self.claims = claims
        self.alsoReadByFFmpeg = alsoReadByFFmpeg
        self.open = open
    }
}

package enum PlaybackSources {
    private static let providers = LockedValue<[PlaybackSourceProvider]>([])

    /// Adds a provider; the newest registered is asked first.
    package static func register(_ provider: PlaybackSourceProvider) {
        providers.withLock { $0.insert(provider, at: 0) }
    }

    /// The registered provider that claims `url`, if any.
    package static func provider(for url: String) -> PlaybackSourceProvider? {
        providers.withLock { $0 }.first { $0.claims(url) }
    }

    /// A registered provider's input when one claims `url` (an `.sdp` file when ReelRTP is
    /// linked) and, when the player `records`, FFmpeg cannot read it instead; anything else
    /// goes to FFmpeg. `interrupt` cancels FFmpeg's open and reads from any thread.
    static func open(_ url: String, options: DemuxOptions, interrupt: InterruptController, liveTarget: Double? = nil,
                     records: Bool = false) throws -> any PlaybackSource {
        if let provider = provider(for: url), !(records && provider.alsoReadByFFmpeg), let source = try provider.open(url, options, liveTarget) {
            return source
        }
        return try Demuxer(url: url, options: options, interrupt: interrupt)
    }
}
