import Foundation
import ReelCore
import ReelFFmpeg

/// What turns a session's input into decoded frames: one of the engines under Reel's
/// player shell, as SGPlayer's shell sits over its platform and FFmpeg engines.
///
/// The cut is at decoded frames, and it is narrow both ways. An engine sees a
/// ``FrameSink`` (frames on their timeline, stream ends, failures, news) and the commands
/// the shell sends it (``seek(to:mode:serial:)``, ``switchAudio(to:)``, ``stop()``); it
/// never sees the session. Everything after the frames is the shell's and the same
/// whichever engine plays: the frame queues, the display loop and clocks, the audio
/// renderer (device, volume, tempo, A/V sync), the frame tap, snapshots, the 360° view and
/// picture-in-picture. What only one engine can do is a capability it declares
/// (``EngineCapabilities``), never a downcast.
protocol PlaybackEngine: AnyObject, Sendable {
    /// Which engine this is.
    var kind: PlaybackEngineKind { get }
    /// The input as this engine sees it.
    var info: MediaInfo { get }
    /// What this engine can do beyond decoding.
    var capabilities: EngineCapabilities { get }
    /// The stream the engine would play for `type`, if the input has one.
    func bestStream(of type: MediaType) -> Int?
    /// Prepares to decode `videoStream` and `audioStream` (what the session chose).
    func prepare(videoStream: Int?, audioStream: Int?, options: DecoderOptions, framePool: FramePool) throws
    /// Starts the engine's threads through `spawn` (the session joins them when it stops);
    /// they decode into `sink` from timeline `serial` on.
    func start(into sink: any FrameSink, serial: Int, spawn: (String, @escaping @Sendable () -> Void) -> Void)
    /// Starts timeline `serial` at `target` (seconds on the input's timeline): what the
    /// engine holds of older timelines is dropped before this returns, and its threads
    /// then decode from the target on.
    func seek(to target: Double, mode: SeekMode, serial: Int)
    /// Decodes audio stream `index` from the timeline of the next ``seek(to:mode:serial:)``
    /// on; throws when it cannot.
    func switchAudio(to index: Int) throws
    /// Wakes whatever the engine's threads wait on; they then end.
    func stop()
    /// What the engine holds and how it decodes, for the statistics.
    var statistics: EngineStatistics { get }

    // Capabilities (see ``capabilities``); an engine without one keeps the defaults.

    /// Drops what is queued before the newest video keyframe at or before `target`, on
    /// the same timeline (a live jump); false when nothing was dropped.
    func skipQueued(before target: Double)
    /// Records the packets read from now on into `recording`'s next file.
    func record(_ recording: Recording, videoStream: Int?, audioStream: Int?, onFailure: @escaping @Sendable (OutputError) -> Void) throws
    /// Ends the recording under way, if any.
    func stopRecording()
    /// The demuxer whose subtitle streams and fonts the shell decodes and draws.
    var subtitleDemuxer: Demuxer? { get }
    /// The live input's packets kept for going back (`Player.Configuration.timeshift`):
    /// the window the viewer may seek in and the live edge. Its seeks move in it.
    var timeshift: TimeshiftRing? { get }
}

/// What an engine can do besides decoding, which the shell asks instead of downcasting.
struct EngineCapabilities: Sendable, Equatable {
    /// Records what it reads without re-encoding (``PlaybackEngine/record(_:videoStream:audioStream:onFailure:)``).
    var supportsRecording = false
    /// A lost input of this engine is opened again (a live input from a server).
    var reopensWhenLost = false
    /// Reports what it reads (``FrameSink/read(_:from:to:serial:)``), so the shell knows a
    /// live input's newest media, and drops queued packets on a live jump.
    var reportsLiveEdge = false
}

/// An engine's counters for ``PlayerStatistics``.
struct EngineStatistics: Sendable {
    var videoPacketsQueued = 0
    var audioPacketsQueued = 0
    /// Seconds of media read ahead of each stream's decoder.
    var videoSecondsQueued = 0.0
    var audioSecondsQueued = 0.0
    var framesAllocated = 0
    /// What decodes the video: the decoder's name, and whether it runs on hardware.
    var videoDecoder: (name: String, isHardware: Bool)?
    /// An adaptive stream's estimated bandwidth (bits/s) and the variant decoded.
    var adaptiveBandwidth: Int?
    var variant: String?
    /// Bytes of the input's packets read so far (nil where the engine does not count them).
    var bytesRead: Int64?
    /// A WebRTC input's losses, retransmissions and keyframe requests.
    var reception: WebRTCReceptionStatistics?
}

extension PlaybackEngine {
    func skipQueued(before target: Double) {}

    func record(_ recording: Recording, videoStream: Int?, audioStream: Int?, onFailure: @escaping @Sendable (OutputError) -> Void) throws {
        throw OutputError(recording.path, "only inputs FFmpeg reads are recorded while playing (start recording before opening an RTSP stream; `reel rtp receive --record` records RTP)")
    }

    func stopRecording() {}

    var subtitleDemuxer: Demuxer? { nil }

    var timeshift: TimeshiftRing? { nil }
}

/// Where an engine hands what it decodes, and tells what happens, on any of its threads.
protocol FrameSink: AnyObject, Sendable {
    /// A decoded picture of timeline `serial`.
    func video(_ frame: VideoFrame, serial: Int)
    /// Decoded sound of timeline `serial`.
    func audio(_ frame: AudioFrame, serial: Int)
    /// A packet of a subtitle stream, read with the others.
    func subtitle(_ packet: Packet)
    /// The subtitle decoders start anew (a seek).
    func subtitlesRestart()
    /// Stream `type` of timeline `serial` ended: nothing more of it comes.
    func streamEnded(_ type: MediaType, serial: Int)
    /// The engine read its input to the end on timeline `serial`.
    func readerReachedEnd(serial: Int)
    /// Media of stream `type` from `start` to `end` (seconds) was read on timeline `serial`:
    /// a live input's newest media. Throws when the stream's time jumped away from what
    /// was read before (a sender that started its timestamps over).
    func read(_ type: MediaType, from start: Double, to end: Double, serial: Int) throws
    /// Playback cannot go on: only the first failure counts.
    func fail(_ error: any Error)
    /// Whether a failure ended the playback (the engine's threads stop).
    var hasFailed: Bool { get }
    /// Something the application hears of as it happens (a variant change, buffering
    /// progress, a seek that failed).
    func report(_ event: PlayerEvent)
}

/// A seek an engine's thread is to carry out.
struct EngineSeek: Sendable {
    var target: Double
    var mode: SeekMode
    var serial: Int
}

/// The commands the shell sends an engine's threads, behind one lock: the newest seek
/// not yet carried out, and whether to stop. Both engines keep one.
final class EngineInbox: @unchecked Sendable {
    private let lock = ConditionLock()
    private var seek: EngineSeek?
    private var stopped = false

    /// Replaces any seek not yet taken.
    func post(_ seek: EngineSeek) {
        lock.withLock {
            self.seek = seek
            lock.broadcast()
        }
    }

    func stop() {
        lock.withLock {
            stopped = true
            lock.broadcast()
        }
    }

    var isStopped: Bool { lock.withLock { stopped } }

    /// The seek to carry out, if one came.
    func takeSeek() -> EngineSeek? {
        lock.withLock {
            defer { seek = nil }
            return seek
        }
    }

    /// Waits for a seek (or the stop), up to `seconds` when given, then takes it.
    func waitForSeek(seconds: Double? = nil) -> EngineSeek? {
        lock.withLock {
            while seek == nil && !stopped {
                lock.wait(seconds: seconds)
                if seconds != nil { break }
            }
            defer { seek = nil }
            return seek
        }
    }
}
