import Foundation
@testable import ReelPlayer
import ReelCore
import ReelFFmpeg

/// An engine that decodes nothing: it hands the session frames from a script, on the
/// test's clock, as GStreamer's `GstHarness` pushes buffers. Video frames come at `fps`
/// with a keyframe every `gop` frames; audio in runs of `audioRun` samples. A seek starts
/// the script again from the keyframe at or before its target (all audio from the
/// target's run), as a demuxer lands on keyframes. Frames come when ``pump(at:)`` is
/// called, each once the clock reaches the time ``arrival`` gives it.
final class ScriptedEngine: PlaybackEngine, @unchecked Sendable {
    let info: MediaInfo
    let fps: Double
    let gop: Int
    let duration: Double
    let audioRate = 48_000
    let audioRun = 1024
    let hasAudio: Bool
    let kind: PlaybackEngineKind
    var capabilities = EngineCapabilities()
    /// Hands frames over on a thread of its own (a player's test), instead of when the
    /// test calls ``pump()`` (a session's).
    var drivesItself = false
    var statistics: EngineStatistics { EngineStatistics() }
    /// When video frame `index` may be handed over, given the time the timeline started:
    /// at once by default.
    var arrival: @Sendable (_ index: Int, _ timelineStart: Double) -> Double = { _, start in start }
    /// When the sound from media time `time` on may be handed over: at once by default.
    var audioArrival: @Sendable (_ time: Double, _ timelineStart: Double) -> Double = { _, start in start }
    /// Video frame indices that are never decoded (a damaged picture).
    var missingFrames: Set<Int> = []
    /// The sound is a beep (0.9) for the first 40 ms of each whole second, quiet (0.1)
    /// between: the flash-and-beep clip's sound, for the pictures at whole seconds.
    var beeps = false
    /// A timeshift that keeps every video frame as it arrives (by ``arrival`` from the
    /// script's start), whatever the session reads.
    var keeps: TimeshiftRing?
    var timeshift: TimeshiftRing? { keeps }
    private var keptCount = 0

    /// The seeks the shell sent, in order.
    var seeks: [EngineSeek] { lock.withLock { seekLog } }
    /// Whether the shell stopped it.
    var stopped: Bool { lock.withLock { isStopped } }
    private var seekLog: [EngineSeek] = []
    private var isStopped = false
    private(set) var switches: [Int] = []
    private var sink: (any FrameSink)?
    private var serial = 0
    private var nextVideo = 0
    /// The next video frame to report read (a live input's newest media): frames are read
    /// as they arrive, ahead of the decoder's queue.
    private var nextRead = 0
    /// The targets of the live jumps asked for.
    private(set) var skips: [Double] = []
    private var nextAudio = 0
    /// The next run of sound to report read, as ``nextRead`` for video.
    private var nextAudioRead = 0
    private var timelineStart = 0.0
    private var videoEnded = false
    private var toldEnd = false
    private var audioEnded = false
    private let clock: ManualPlaybackClock

    private let lock = NSRecursiveLock()

    init(clock: ManualPlaybackClock, kind: PlaybackEngineKind = .ffmpeg, fps: Double = 25, gop: Int = 25, duration: Double = 4,
         audio: Bool = true) {
        self.clock = clock
        self.kind = kind
        self.fps = fps
        self.gop = gop
        self.duration = duration
        hasAudio = audio
        var streams = [StreamDescription(index: 0, type: .video, codecName: "h264", timeBase: Rational(1, 90_000))]
        streams[0].width = 64
        streams[0].height = 36
        streams[0].averageFrameRate = Rational(Int(fps.rounded()), 1)
        if audio {
            var sound = StreamDescription(index: 1, type: .audio, codecName: "aac", timeBase: Rational(1, 48_000))
            sound.sampleRate = audioRate
            sound.channels = 2
            streams.append(sound)
        }
        let format = FormatDescription(url: "scripted://clip", name: "scripted", longName: "scripted engine", startTime: 0,
                                       duration: duration, size: nil, bitRate: nil, streamCount: streams.count, tags: [:])
        info = MediaInfo(format: format, chapters: [], streams: streams)
    }

    var videoFrameCount: Int { Int((duration * fps).rounded()) }
    func videoTime(_ index: Int) -> Double { Double(index) / fps }

    func bestStream(of type: MediaType) -> Int? { type == .video ? 0 : (type == .audio && hasAudio ? 1 : nil) }
    func prepare(videoStream: Int?, audioStream: Int?, options: DecoderOptions, framePool: FramePool) throws {}

    func start(into sink: any FrameSink, serial: Int, spawn: (String, @escaping @Sendable () -> Void) -> Void) {
        lock.withLock {
            self.sink = sink
            self.serial = serial
            timelineStart = clock.now
        }
        guard drivesItself else { return }
        spawn("reel.tests.engine") { [self] in
            // Polls: what it waits for (room in a queue, a seek, the clock) comes from
            // several places; the outcomes do not depend on when it looks.
            while !stopped && !sink.hasFailed {
                pump()
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
    }

    /// The input fails on the engine's thread, as a lost connection does.
    func fail(_ error: any Error) {
        lock.withLock { sink }?.fail(error)
    }

    func seek(to target: Double, mode: SeekMode, serial: Int) {
        lock.lock()
        defer { lock.unlock() }
        seekLog.append(EngineSeek(target: target, mode: mode, serial: serial))
        self.serial = serial
        let frame = max(min(Int((target * fps + 1e-9).rounded(.down)), videoFrameCount - 1), 0)
        nextVideo = frame - frame % gop
        nextRead = nextVideo
        nextAudio = max(Int(target * Double(audioRate)) / audioRun, 0)
        nextAudioRead = nextAudio
        videoEnded = false
        audioEnded = false
        toldEnd = false
        timelineStart = clock.now
    }

    func switchAudio(to index: Int) throws { switches.append(index) }
    func skipQueued(before target: Double) { skips.append(target) }
    func stop() { lock.withLock { isStopped = true } }

    /// Hands over what has arrived by now, as far as the session's queues take it
    /// without waiting.
    func pump() {
        lock.lock()
        defer { lock.unlock() }
        guard let session = sink as? PlaybackSession else { return }
        let now = clock.now
        while let keeps, keptCount < videoFrameCount, arrival(keptCount, 0) <= now {
            try? keeps.keep(Self.packet(at: keptCount, fps: fps, gop: gop))
            keptCount += 1
        }
        while nextRead < videoFrameCount, arrival(nextRead, timelineStart) <= now {
            let start = videoTime(nextRead)
            try? session.read(.video, from: start, to: start + 1 / fps, serial: serial)
            nextRead += 1
        }
        while !videoEnded, session.videoFrames.count < session.configuration.videoFrameQueueCount {
            if nextVideo >= videoFrameCount {
                session.streamEnded(.video, serial: serial)
                videoEnded = true
                break
            }
            guard arrival(nextVideo, timelineStart) <= now else { break }
            if !missingFrames.contains(nextVideo) { session.video(Self.picture(at: videoTime(nextVideo), fps: fps), serial: serial) }
            nextVideo += 1
        }
        let audioRuns = hasAudio ? Int(duration * Double(audioRate)) / audioRun : 0
        while nextAudioRead < audioRuns, audioArrival(Double(nextAudioRead * audioRun) / Double(audioRate), timelineStart) <= now {
            let start = Double(nextAudioRead * audioRun) / Double(audioRate)
            try? session.read(.audio, from: start, to: start + Double(audioRun) / Double(audioRate), serial: serial)
            nextAudioRead += 1
        }
        while hasAudio, !audioEnded, session.audioFrames.count < session.configuration.audioFrameQueueCount {
            if nextAudio >= audioRuns {
                session.streamEnded(.audio, serial: serial)
                audioEnded = true
                break
            }
            let start = Double(nextAudio * audioRun) / Double(audioRate)
            guard audioArrival(start, timelineStart) <= now else { break }
            session.audio(Self.sound(startingAt: nextAudio * audioRun, count: audioRun, rate: audioRate, beeps: beeps), serial: serial)
            nextAudio += 1
        }
        if videoEnded && (audioEnded || !hasAudio) && !toldEnd {
            toldEnd = true
            session.readerReachedEnd(serial: serial)
        }
    }

    /// Video frame `index`'s packet (a byte), as a timeshift keeps it.
    static func packet(at index: Int, fps: Double, gop: Int) -> Packet {
        let storage = HeapStorage(byteCount: 1)
        let ticks = Int64((Double(index) / fps * 90_000).rounded())
        return Packet(streamIndex: 0, pts: ticks, dts: ticks, duration: Int64((90_000 / fps).rounded()), timeBase: Rational(1, 90_000),
                      isKeyframe: index % gop == 0, data: UnsafeRawBufferPointer(storage.bytes), owner: storage)
    }

    /// A 64×36 grey picture at `time` lasting a frame.
    static func picture(at time: Double, fps: Double) -> VideoFrame {
        let storage = HeapStorage(byteCount: 64 * 36 * 3 / 2)
        // Grey in limited range (Y, U and V 128): legal, so that a picture drawn into (a
        // gift) and converted back keeps its other pixels.
        storage.bytes.initializeMemory(as: UInt8.self, repeating: 128)
        let base = UnsafeRawPointer(storage.bytes.baseAddress!)
        let planes = [PlaneView(baseAddress: base, bytesPerRow: 64, rowByteCount: 64, rowCount: 36),
                      PlaneView(baseAddress: base + 64 * 36, bytesPerRow: 32, rowByteCount: 32, rowCount: 18),
                      PlaneView(baseAddress: base + 64 * 36 + 32 * 18, bytesPerRow: 32, rowByteCount: 32, rowCount: 18)]
        let ticks = Int64((time * 90_000).rounded())
        return VideoFrame(width: 64, height: 36, pixelFormat: .yuv420p, planes: planes, color: ColorDescription(),
                          sampleAspectRatio: Rational(1, 1), pts: ticks, duration: Int64((90_000 / fps).rounded()),
                          timeBase: Rational(1, 90_000), isKeyframe: false, owner: storage)
    }

    /// `count` stereo float samples from sample `first` on: quiet, or with `beeps` loud
    /// for the first 40 ms of each second.
    static func sound(startingAt first: Int, count: Int, rate: Int, beeps: Bool = false) -> AudioFrame {
        let storage = HeapStorage(byteCount: count * 2 * 4)
        let samples = storage.bytes.bindMemory(to: Float.self)
        for index in 0..<count * 2 {
            samples[index] = beeps && (first + index / 2) % rate < rate / 25 ? 0.9 : 0.1
        }
        return AudioFrame(sampleFormat: .flt, sampleRate: rate, channelCount: 2, channelLayout: "stereo", sampleCount: count,
                          planes: [UnsafeRawPointer(storage.bytes.baseAddress!)], pts: Int64(first), timeBase: Rational(1, rate),
                          owner: storage)
    }
}
