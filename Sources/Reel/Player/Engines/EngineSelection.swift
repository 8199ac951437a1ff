import Foundation
import ReelCore
import ReelFFmpeg

/// How a player picks the engine for an input, as SGPlayer's decoder selection picks one
/// per resource.
public enum EngineSelection: Sendable {
    /// By Reel's rules: an SDP goes to Reel's RTP receiver (the FFmpeg engine's source);
    /// everything else to FFmpeg.
    case automatic
    /// FFmpeg's libavformat and libavcodec.
    case ffmpeg
    /// GStreamer's decodebin.
    case gstreamer
    /// The caller's rule, given the input's URL or path.
    case custom(@Sendable (String) -> PlaybackEngineKind)

    /// The engine for `url`.
    public func engine(for url: String) -> PlaybackEngineKind {
        switch self {
        case .automatic, .ffmpeg: .ffmpeg
        case .gstreamer: .gstreamer
        case .custom(let rule): rule(url)
        }
    }
}

enum PlaybackEngines {
    /// Opens `url` in the engine the configuration picks, for the streams wanted.
    static func open(_ url: String, configuration: Player.Configuration, video: Bool, audio: Bool,
                     interrupt: InterruptController?) throws -> any PlaybackEngine {
        switch configuration.engine.engine(for: url) {
        case .gstreamer:
            return try GStreamerEngine(url: url, video: video, audio: audio, timeout: configuration.input.timeout)
        case .ffmpeg:
            let liveByProtocol = configuration.live == .on || (configuration.live == .auto && LiveInputs.isLive(url: url))
            let source = try PlaybackSources.open(url, options: liveByProtocol ? configuration.input.forLiveInput() : configuration.input,
                                                  interrupt: interrupt ?? InterruptController(timeout: configuration.input.timeout),
                                                  liveTarget: configuration.live == .off ? nil : configuration.liveLatency.target)
            return FFmpegEngine(source: source)
        }
    }
}
