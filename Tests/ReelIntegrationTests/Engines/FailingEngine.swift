import Foundation
import Reel
@testable import ReelPlayer

/// A real engine whose decoding fails where a test says: every picture it decodes passes
/// through `failure` (the engine, the picture's time), and the first one that gets an error
/// fails the playback with it, as a decoder meeting damaged data does. Wraps the engine at
/// the seam, so production code carries no hook for it.
final class FailingEngine: PlaybackEngine, @unchecked Sendable {
    let base: any PlaybackEngine
    let failure: @Sendable (PlaybackEngineKind, Double) -> (any Error)?

    init(_ base: any PlaybackEngine, failure: @escaping @Sendable (PlaybackEngineKind, Double) -> (any Error)?) {
        self.base = base
        self.failure = failure
    }

    /// A player whose engines (made as usual) fail where `failure` says.
    static func player(configuration: Player.Configuration, video: any VideoOutput & Sendable,
                       failure: @escaping @Sendable (PlaybackEngineKind, Double) -> (any Error)?) -> Player {
        Player(configuration: configuration, frameTap: .withLibswscaleFallback(), videoOutput: { video }, audioOutput: { HeadlessAudioOutput() },
               clock: MonotonicPlaybackClock.shared) { url, configuration, video, audio, interrupt, records, emit in
            FailingEngine(try PlaybackEngines.open(url, configuration: configuration, video: video, audio: audio, interrupt: interrupt,
                                                   records: records, emit: emit), failure: failure)
        }
    }

    var kind: PlaybackEngineKind { base.kind }
    var info: MediaInfo { base.info }
    var capabilities: EngineCapabilities { base.capabilities }
    var statistics: EngineStatistics { base.statistics }
    var subtitleDemuxer: Demuxer? { base.subtitleDemuxer }
    func bestStream(of type: MediaType) -> Int? { base.bestStream(of: type) }
    func prepare(videoStream: Int?, audioStream: Int?, options: DecoderOptions, framePool: FramePool) throws {
        try base.prepare(videoStream: videoStream, audioStream: audioStream, options: options, framePool: framePool)
    }
    func start(into sink: any FrameSink, serial: Int, spawn: (String, @escaping @Sendable () -> Void) -> Void) {
        base.start(into: FailingSink(sink, kind: base.kind, failure: failure), serial: serial, spawn: spawn)
    }
    func seek(to target: Double, mode: SeekMode, serial: Int) { base.seek(to: target, mode: mode, serial: serial) }
    func switchAudio(to index: Int) throws { try base.switchAudio(to: index) }
    func stop() { base.stop() }
}

/// Passes everything on, except a picture that `failure` fails.
private final class FailingSink: FrameSink, @unchecked Sendable {
    let sink: any FrameSink
    let kind: PlaybackEngineKind
    let failure: @Sendable (PlaybackEngineKind, Double) -> (any Error)?

    init(_ sink: any FrameSink, kind: PlaybackEngineKind, failure: @escaping @Sendable (PlaybackEngineKind, Double) -> (any Error)?) {
        self.sink = sink
        self.kind = kind
        self.failure = failure
    }

    func video(_ frame: VideoFrame, serial: Int) {
        if let error = failure(kind, frame.presentationTime?.seconds ?? 0) {
            sink.fail(error)
        } else {
            sink.video(frame, serial: serial)
        }
    }
    func audio(_ frame: AudioFrame, serial: Int) { sink.audio(frame, serial: serial) }
    func subtitle(_ packet: Packet) { sink.subtitle(packet) }
    func subtitlesRestart() { sink.subtitlesRestart() }
    func streamEnded(_ type: MediaType, serial: Int) { sink.streamEnded(type, serial: serial) }
    func readerReachedEnd(serial: Int) { sink.readerReachedEnd(serial: serial) }
    func read(_ type: MediaType, from start: Double, to end: Double, serial: Int) throws { try sink.read(type, from: start, to: end, serial: serial) }
    func fail(_ error: any Error) { sink.fail(error) }
    var hasFailed: Bool { sink.hasFailed }
    func report(_ event: PlayerEvent) { sink.report(event) }
}
