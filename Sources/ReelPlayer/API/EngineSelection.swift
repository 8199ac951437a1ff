import Foundation
import ReelCore
import ReelFFmpeg
import ReelGStreamer

/// How a player picks the engine for an input, as SGPlayer's decoder selection picks one
/// per resource.
public enum EngineSelection: Sendable {
    /// By Reel's rules (``EnginePolicy``): adaptive manifests with several variants to
    /// GStreamer, the rest (an SDP through Reel's RTP receiver) to FFmpeg. An engine that
    /// cannot open the input hands it to the other.
    case automatic
    /// FFmpeg's libavformat and libavcodec, and nothing else.
    case ffmpeg
    /// GStreamer's decodebin, and nothing else.
    case gstreamer
    /// The caller's rule, given the input's URL or path; the other engine is the fallback.
    case custom(@Sendable (String) -> PlaybackEngineKind)

    /// The engine for `url` and why; Reel's rules read a manifest's first bytes (within
    /// `timeout` seconds) when the choice depends on them.
    public func decision(for url: String, timeout: Double? = 15) -> EngineDecision {
        decision(for: url, heads: isAutomatic ? ManifestHeads.read(url, options: DemuxOptions(timeout: timeout)) : ManifestHeads())
    }

    /// The engine for `url`, given what was read of its manifest.
    func decision(for url: String, heads: ManifestHeads) -> EngineDecision {
        switch self {
        case .ffmpeg: EngineDecision(.ffmpeg, because: "asked for")
        case .gstreamer: EngineDecision(.gstreamer, because: "asked for")
        case .custom(let rule): EngineDecision(rule(url), because: "the application's rule")
        case .automatic: EnginePolicy.decide(url, head: heads.manifest, firstVariantHead: heads.firstVariant)
        }
    }

    var isAutomatic: Bool {
        if case .automatic = self { true } else { false }
    }

    /// The selection of `engine` alone.
    public static func only(_ engine: PlaybackEngineKind) -> EngineSelection {
        engine == .ffmpeg ? .ffmpeg : .gstreamer
    }

    /// Whether an engine that cannot open an input hands it to the other (not when one
    /// was asked for).
    var fallsBack: Bool {
        switch self {
        case .automatic, .custom: true
        case .ffmpeg, .gstreamer: false
        }
    }
}

/// Opens an input in an engine, for the streams wanted (`video`, `audio`): what a player
/// calls to make each session's engine (``PlaybackEngines/open(_:configuration:video:audio:interrupt:records:emit:)``;
/// tests hand a player a fake).
typealias EngineOpener = @Sendable (_ url: String, _ configuration: Player.Configuration, _ video: Bool, _ audio: Bool,
                                    _ interrupt: InterruptController?, _ records: Bool, _ emit: @Sendable (PlayerEvent) -> Void) throws -> any PlaybackEngine

enum PlaybackEngines {
    /// Opens `url` in the engine the configuration picks, for the streams wanted; when it
    /// cannot be opened there for want of a demuxer, decoder or plug-in (or damaged data),
    /// in the other engine, as the selection allows. Says what it chose through `emit`.
    static func open(_ url: String, configuration: Player.Configuration, video: Bool, audio: Bool,
                     interrupt: InterruptController?, records: Bool = false, emit: @Sendable (PlayerEvent) -> Void) throws -> any PlaybackEngine {
        // A manifest is read once: for the rules, the variants a height cap allows, and
        // whether a playlist is live.
        let heads = ManifestHeads.read(url, options: configuration.input)
        let decision = configuration.engine.decision(for: url, heads: heads)
        emit(.engineChosen(decision))
        let bitrateCap = configuration.maximumVariantHeight.flatMap { height in
            heads.manifest.flatMap { String(data: $0, encoding: .utf8) }.flatMap { EnginePolicy.bitrateCap(forHeight: height, variants: EnginePolicy.variants($0)) }
        }
        func open(in engine: PlaybackEngineKind) throws -> any PlaybackEngine {
            try Self.open(url, in: engine, configuration: configuration, video: video, audio: audio, interrupt: interrupt,
                          maximumBitrate: bitrateCap, records: records, heads: heads)
        }
        do {
            return try open(in: decision.engine)
        } catch {
            guard configuration.engine.fallsBack, canFallBack(after: error, url: url) else { throw error }
            let other: PlaybackEngineKind = decision.engine == .ffmpeg ? .gstreamer : .ffmpeg
            // An input a linked product receives itself (an SDP with ReelRTP) is that
            // product's; GStreamer has nothing to add.
            if other == .gstreamer && PlaybackSources.provider(for: url) != nil { throw error }
            emit(.engineFallback(from: decision.engine, to: other, reason: "\(error)"))
            do {
                return try open(in: other)
            } catch {
                // Both failed: the first engine's words are the ones to act on.
            }
            throw error
        }
    }

    static func open(_ url: String, in engine: PlaybackEngineKind, configuration: Player.Configuration, video: Bool, audio: Bool,
                     interrupt: InterruptController?, maximumBitrate: Int?, records: Bool = false, heads: ManifestHeads = ManifestHeads()) throws -> any PlaybackEngine {
        switch engine {
        case .gstreamer:
            return try GStreamerEngine(url: url, video: video, audio: audio, timeout: configuration.input.timeout, maximumBitrate: maximumBitrate,
                                       readAhead: configuration.packetQueueSeconds,
                                       deinterlace: GStreamerDecoder.Deinterlacing(configuration.deinterlace, configuration.deinterlaceMode),
                                       tls: configuration.input.tls, webRTC: (configuration.whepToken, configuration.webRTCLatency))
        case .ffmpeg:
            let liveByProtocol = configuration.live == .on || (configuration.live == .auto && LiveInputs.isLive(url: url))
            let liveHLS = EnginePolicy.liveHLS(head: heads.manifest, firstVariantHead: heads.firstVariant)
            var options: DemuxOptions = switch (configuration.live == .off ? nil : liveHLS, liveByProtocol) {
            case (.mediaPlaylist?, _): configuration.input.forLiveHLS()
            // FFmpeg reloads a master's variants itself, on its own timer.
            case (.masterPlaylist?, _), (nil, true): configuration.input.forLiveInput()
            case (nil, false): configuration.input
            }
            options.maximumVariantBitrate = maximumBitrate
            let source = try PlaybackSources.open(url, options: options,
                                                  interrupt: interrupt ?? InterruptController(timeout: configuration.input.timeout),
                                                  liveTarget: configuration.live == .off ? nil : configuration.liveLatency.target, records: records)
            let packetLimits = BlockingQueue<QueuedPacket>.Limits(bytes: configuration.packetQueueBytes, seconds: configuration.packetQueueSeconds)
            return FFmpegEngine(source: try timeshifted(source, configuration: configuration), packetLimits: packetLimits,
                                videoDecoding: configuration.videoDecoding)
        }
    }

    /// `source` read through a timeshift when the configuration asks for one and it is a
    /// live input FFmpeg reads (as the session will judge it live).
    static func timeshifted(_ source: any PlaybackSource, configuration: Player.Configuration) throws -> any PlaybackSource {
        let format = source.info.format
        guard let window = configuration.timeshift, window > 0, source is Demuxer,
              configuration.live == .on || (configuration.live == .auto && LiveInputs.isLive(url: source.url, duration: format.duration, size: format.size, format: format.name))
        else { return source }
        let directory = configuration.timeshiftDirectory ?? NSTemporaryDirectory()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
              FileManager.default.isWritableFile(atPath: directory) else {
            throw OutputError(directory, "the timeshift needs a directory it may write in")
        }
        return TimeshiftSource(live: source, window: window, directory: directory, maximumBytes: configuration.timeshiftMaximumBytes)
    }

    /// Whether the other engine may open what this one could not: when this one lacks a
    /// demuxer, decoder, plug-in or protocol for it, or could not make sense of a file's
    /// bytes. Not when the input is missing, refused, silent, forbidden or cut short, which
    /// no engine changes, nor for what a live server sends (garbage from a server is the
    /// server's fault, and the live input reconnects).
    static func canFallBack(after error: any Error, url: String) -> Bool {
        if let decoding = error as? DecodeError {
            switch decoding.reason {
            case .decoderNotFound, .openFailed: return true
            default: return false
            }
        }
        guard let input = error as? InputError else { return false }
        switch input.reason {
        case .unsupportedFormat, .unsupportedProtocol: return true
        case .invalidData, .noStreams: return !LiveInputs.isLive(url: url)
        default: return false
        }
    }
}
