import Foundation
import ReelCore
import ReelFFmpeg

/// One opened input being played: an engine (``PlaybackEngine``) that decodes it into the
/// session (its ``FrameSink``), and the shell's part, the same whichever engine decodes:
/// the frame queues and their timelines, the display thread, the audio renderer (pulled
/// by the device), the live thread.
final class PlaybackSession: @unchecked Sendable {
    /// Where a session shows and plays what it decodes.
    struct Outputs {
        var video: VideoOutput?
        var audio: AudioOutput?
        var tap: FrameTap?
        /// The thread on which the video output is used, shared by a player's sessions.
        let displayThread: DisplayThread
        /// The player's animations over the picture, drawn by the display.
        var overlays: PlayerOverlays?
    }

    /// What a session tells its player, from any of its threads.
    struct Callbacks: Sendable {
        var emit: @Sendable (PlayerEvent) -> Void = { _ in }
        /// The playback failed (after the error was emitted).
        var onEnd: @Sendable () -> Void = {}
        /// The user asked the video output for something (a key, a click).
        var onCommand: @Sendable (UserCommand) -> Void = { _ in }
        /// The display starved (true) or has frames again (false).
        var onBuffering: @Sendable (Bool) -> Void = { _ in }
    }

    let configuration: Player.Configuration
    let control = PlaybackControl()
    /// What the live thread sleeps on between its looks: only the stop wakes it (on the
    /// control's lock, every picture shown woke it for nothing, 15-30 times a second).
    let liveWake = ConditionLock()
    let clock: any PlaybackClock
    let info: MediaInfo
    let videoStream: Int?
    let audioStream: Int?
    let master: ClockMaster
    let startTime: Double
    let videoFrames: BlockingQueue<QueuedVideoFrame>
    let audioFrames: BlockingQueue<QueuedAudioFrame>
    let videoOutput: VideoOutput?
    let frameTap: FrameTap?
    let audioOutput: AudioOutput?
    let callbacks: Callbacks
    let openedAt: Double
    /// Played live: latency kept on target (``keepLiveLatency()``).
    let isLive: Bool
    /// Opened again when it ends or fails: a live input from a server.
    var isReconnectable: Bool { isLive && engine.capabilities.reopensWhenLost }
    private let displayThread: DisplayThread

    let engine: any PlaybackEngine
    /// The input's subtitle tracks and files, and the one shown; nil without any, or without video.
    let subtitles: SubtitleLayer?
    /// The player's animations over the picture; nil without video.
    let overlays: PlayerOverlays?
    /// Maps HDR frames to SDR (decode thread); nil when the configuration says not to.
    private let toneMapper: ToneMapper?
    /// Deinterlaces frames (the thread that delivers them); nil when told never to.
    private let deinterlacer: Deinterlacer?
    /// Turns frames upright as the stream or the configuration says; nil when they are.
    private let orienter: FrameOrienter?
    private let finished = DispatchGroup()
    /// Seeks come from the caller and from the window's keys: one at a time.
    let seekLock = NSLock()
    lazy var audioRenderer: AudioRenderer? = audioOutput.map { AudioRenderer(session: self, format: $0.format) }

    /// A session of `url` opened by `engine`, not yet started: the streams played are
    /// chosen (`audioTrack`, a stream index, overrides the configuration's request) and the
    /// engine prepared for them.
    init(url: String, engine: any PlaybackEngine, configuration: Player.Configuration, outputs: Outputs, callbacks: Callbacks,
         clock: any PlaybackClock = MonotonicPlaybackClock.shared, openedAt: Double? = nil, audioTrack: Int? = nil) throws {
        self.configuration = configuration
        self.clock = clock
        self.openedAt = openedAt ?? clock.now
        if configuration.measuresLatency { control.update { $0.latencyMeter = LatencyMeter(warmup: configuration.latencyWarmup) } }
        displayThread = outputs.displayThread
        self.callbacks = callbacks
        self.engine = engine
        info = engine.info
        isLive = configuration.live == .on || (configuration.live == .auto && LiveInputs.isLive(url: url, duration: info.format.duration, size: info.format.size, format: info.format.name))
        startTime = info.format.startTime ?? 0
        let videoStream = outputs.video == nil ? nil : engine.bestStream(of: .video)
        let audioStream = outputs.audio == nil ? nil : (audioTrack ?? Self.audioStream(configuration.audioTrack, engine))
        self.videoStream = videoStream
        self.audioStream = audioStream
        guard videoStream != nil || audioStream != nil else { throw DecodeError(.noSuchStream(.video)) }
        // Frames in flight at most: both frame queues, the ones being shown and played,
        // and what frame-threaded decoders hold (one per thread, up to 16).
        let pool = FramePool(preallocated: configuration.videoFrameQueueCount + configuration.audioFrameQueueCount + 20)
        var decoderOptions = configuration.decoder
        decoderOptions.lowDelay = decoderOptions.lowDelay || isLive
        try engine.prepare(videoStream: videoStream, audioStream: audioStream, options: decoderOptions, framePool: pool)
        control.audioStreamIndex = audioStream
        videoOutput = videoStream == nil ? nil : outputs.video
        let streams = engine.info.streams
        let orientation = videoStream.map { stream in configuration.rotation.orientation(forStream: streams.first { $0.index == stream }?.orientation ?? .upright) } ?? .upright
        orienter = orientation.isUpright ? nil : FrameOrienter(orientation: orientation)
        toneMapper = configuration.toneMapping.map { ToneMapper(curve: $0) }
        deinterlacer = configuration.deinterlace == .no ? nil : Deinterlacer(setting: configuration.deinterlace, mode: configuration.deinterlaceMode)
        subtitles = videoStream == nil ? nil
            : try SubtitleLayer(demuxer: engine.subtitleDemuxer, info: engine.info, files: SameNameSubtitles.files(for: url, configuration: configuration),
                                request: configuration.subtitleTrack, startTime: startTime, options: configuration.input)
        control.subtitleSettings = SubtitleSettings(delay: configuration.subtitleDelay, scale: configuration.subtitleScale)
        frameTap = outputs.tap
        overlays = videoStream == nil ? nil : outputs.overlays
        audioOutput = audioStream == nil ? nil : outputs.audio
        let requested = configuration.clockMaster
        master = configuration.untimed ? .video
            : requested == .audio && audioStream == nil ? (videoStream == nil ? .external : .video)
            : requested == .video && videoStream == nil ? .audio : requested
        videoFrames = BlockingQueue(limits: .init(count: configuration.videoFrameQueueCount))
        audioFrames = BlockingQueue(limits: .init(count: configuration.audioFrameQueueCount))
    }

    var duration: Double? { info.format.duration }
    func emit(_ event: PlayerEvent) { callbacks.emit(event) }

    /// The stream a request picks: with no language asked for, the engine's best audio stream.
    private static func audioStream(_ request: TrackRequest, _ engine: any PlaybackEngine) -> Int? {
        if request == .automatic() { return engine.bestStream(of: .audio) }
        return request.choose(.audio, among: Track.tracks(of: engine.info))?.streamIndex
    }

    /// One frame's time by the video stream's average rate (25 fps when it has none), for
    /// frames that carry no duration.
    var nominalFrameDuration: Double {
        let rate = videoStream.flatMap { index in info.streams.first { $0.index == index }?.averageFrameRate }
        guard let rate, rate.isKnown, let fps = rate.doubleValue, fps > 0 else { return 0.04 }
        return 1 / fps
    }
    /// The input's chapters, on the timeline positions are given in (from the input's start).
    private(set) lazy var chapters = ChapterNavigation(info.chapters.map { chapter in
        var shifted = chapter
        let offset = Int64((startTime / (chapter.timeBase.doubleValue ?? 1)).rounded())
        shifted.start -= offset
        shifted.end -= offset
        return shifted
    })

    func start() throws {
        engine.start(into: self, serial: control.read { $0.serial }, spawn: spawn)
        if videoStream != nil {
            finished.enter()
            displayThread.async { [self] in
                var loop = DisplayLoop(session: self)
                loop.run()
                finished.leave()
            }
        }
        if let audioOutput, let renderer = audioRenderer {
            overlays?.prepareSounds(for: audioOutput.format)
            try audioOutput.start { buffer, heardAt in renderer.render(into: buffer, heardAt: heardAt) }
        }
        if isLive && !configuration.untimed {
            spawn("reel.live") { [self] in keepLiveLatency() }
        }
    }

    // What the session's threads freed goes back to the system once its members are gone.
    deinit { FreedMemory.releaseSoon() }

    /// Ends every thread and waits for them; the video output is closed unless it is to
    /// show the next input too.
    func stop(closingVideoOutput: Bool = true) {
        control.update { $0.aborted = true }
        liveWake.withLock { liveWake.broadcast() }
        videoFrames.abort()
        audioFrames.abort()
        engine.stop()
        subtitles?.stop()
        audioOutput?.close()
        _ = finished.wait(timeout: .now() + 10)
        if closingVideoOutput, let videoOutput { displayThread.close(videoOutput) }
    }

    private func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
        finished.enter()
        let thread = Thread { [finished] in
            body()
            finished.leave()
        }
        thread.name = name
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    // MARK: Seeking

    /// Starts a new timeline at once: the frame queues are emptied (waking blocked
    /// producers), and the engine drops what it holds and is told where to go.
    func requestSeek(to target: Double, mode: SeekMode, alsoUpdate: (PlaybackControl) -> Void = { _ in }) {
        seekLock.lock()
        defer { seekLock.unlock() }
        let serial = control.read { $0.serial } + 1
        videoFrames.flush(serial: serial)
        audioFrames.flush(serial: serial)
        control.update { control in
            control.serial = serial
            control.seekTarget = target
            control.exactTarget = mode == .exact ? (serial, target) : nil
            control.readerAtEnd = false
            control.videoEnded = false
            control.audioEnded = false
            control.endReported = false
            control.holdClocks(control.paused || control.buffering, at: clock.now)
            alsoUpdate(control)
        }
        engine.seek(to: target, mode: mode, serial: serial)
    }

    /// Plays audio stream `index` from now on: an exact seek to the position starts a
    /// timeline on which the engine decodes that stream, as mpv's refresh seek does.
    /// Nothing of the old track is played after the switch.
    func switchAudio(to index: Int, at position: Double) throws {
        try engine.switchAudio(to: index)
        requestSeek(to: position, mode: .exact) { $0.audioStreamIndex = index }
    }

    /// Ends the playback with `error`; only the first failure of a session counts (a
    /// stream thread that goes on meeting the same fault says it once).
    func fail(_ error: any Error) {
        let first = failed.withLock { failed in
            defer { failed = true }
            return !failed
        }
        guard first else { return }
        emit(.error(PlayerError(error)))
        callbacks.onEnd()
    }

    private let failed = LockedValue(false)

    /// Called when a stream of timeline `serial` reached its end; the playback ends when
    /// all have. A call for an older timeline (a seek came meanwhile) changes nothing.
    func streamFinished(video: Bool, serial: Int) {
        let ended = control.update { control -> Bool in
            guard control.serial == serial else { return false }
            if video { control.videoEnded = true } else { control.audioEnded = true }
            guard !control.endReported,
                  control.videoEnded || videoStream == nil, control.audioEnded || audioStream == nil else { return false }
            control.endReported = true
            control.holdClocks(true, at: clock.now)
            return true
        }
        if ended { emit(.endOfStream) }
    }
}

extension PlaybackSession: FrameSink {
    var hasFailed: Bool { failed.withLock { $0 } }

    func report(_ event: PlayerEvent) { emit(event) }

    func video(_ frame: VideoFrame, serial: Int) {
        do {
            for picture in try deinterlacer?.push(frame, serial: serial) ?? [frame] { try queue(picture, serial: serial) }
        } catch {
            fail(error)
        }
    }

    /// Maps, turns and queues one picture to show.
    private func queue(_ frame: VideoFrame, serial: Int) throws {
        var video = frame
        if let toneMapper { video = try toneMapper.map(video) }
        var item = QueuedVideoFrame(frame: video)
        if let orienter {
            var decoded = video
            decoded.orientation = orienter.orientation
            item = QueuedVideoFrame(frame: try orienter.orient(video), decoded: decoded)
        }
        if let pts = item.pts, control.isBeforeTarget(serial: serial, time: pts, duration: item.duration) { return }
        videoFrames.put(item, serial: serial)
    }

    func audio(_ frame: AudioFrame, serial: Int) {
        let start = frame.presentationTime?.seconds ?? 0
        let length = Double(frame.sampleCount) / Double(max(frame.sampleRate, 1))
        if control.isBeforeTarget(serial: serial, time: start, duration: length) { return }
        audioFrames.put(QueuedAudioFrame(frame: frame), serial: serial)
    }

    func subtitle(_ packet: Packet) { subtitles?.take(packet) }

    func subtitlesRestart() { subtitles?.flushDecoders() }

    func streamEnded(_ type: MediaType, serial: Int) {
        if type == .video {
            do {
                for picture in try deinterlacer?.drain(serial: serial) ?? [] { try queue(picture, serial: serial) }
            } catch {
                fail(error)
            }
            videoFrames.put(QueuedVideoFrame(frame: nil), serial: serial)
        } else {
            audioFrames.put(QueuedAudioFrame(frame: nil), serial: serial)
        }
    }

    func readerReachedEnd(serial: Int) {
        // A seek that came while the markers were queued started a new timeline, which
        // has not been read at all: only the end of the timeline read here is recorded.
        control.update { if $0.serial == serial { $0.readerAtEnd = true } }
    }

    func read(_ type: MediaType, from start: Double, to end: Double, serial: Int) throws {
        guard isLive else { return }
        let video = type == .video
        let jumped = control.lock.withLock { () -> Double? in
            let newest = video ? control.newestRead.video : control.newestRead.audio
            guard control.newestRead.isJump(to: start, video: video, serial: serial) else {
                control.newestRead.note(end, video: video, serial: serial)
                return nil
            }
            return newest
        }
        // Played on, the streams would stay apart (each jumps at its own packet): the
        // input is opened again, on a new timeline.
        if let jumped { throw InputError(.timestampsJumped(from: jumped, to: start), operation: .read, url: info.format.url) }
    }
}
