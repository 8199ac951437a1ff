import Foundation
import ReelCore
import ReelFFmpeg

/// One opened input being played: an engine (``PlaybackEngine``) that decodes it into the
/// session's frame queues, and the shell's part, the same whichever engine decodes: the
/// timelines, the display thread, the audio renderer (pulled by the device), the live
/// thread. The packet queues are the FFmpeg engine's.
final class PlaybackSession: @unchecked Sendable {
    let configuration: Player.Configuration
    let control = PlaybackControl()
    let info: MediaInfo
    let videoStream: Int?
    let audioStream: Int?
    let master: ClockMaster
    let startTime: Double
    let videoPackets: BlockingQueue<QueuedPacket>
    let audioPackets: BlockingQueue<QueuedPacket>
    let videoFrames: BlockingQueue<QueuedVideoFrame>
    let audioFrames: BlockingQueue<QueuedAudioFrame>
    let videoOutput: VideoOutput?
    let frameTap: FrameTap?
    let audioOutput: AudioOutput?
    let emit: @Sendable (PlayerEvent) -> Void
    let onEnd: @Sendable () -> Void
    let onCommand: @Sendable (UserCommand) -> Void
    var onBuffering: @Sendable (Bool) -> Void = { _ in }
    let openedAt: Double
    /// Played live: latency kept on target (``keepLiveLatency()``).
    let isLive: Bool
    /// Opened again when it ends or fails: a live input from a server (``PlaybackSource/reopensWhenLost``).
    var isReconnectable: Bool { isLive && demuxer?.reopensWhenLost == true }
    private let testHooks: PlaybackTestHooks
    private let displayThread: DisplayThread

    let engine: any PlaybackEngine
    /// The packets' source when the FFmpeg engine plays (recording and subtitles read it).
    var demuxer: (any PlaybackSource)? { (engine as? FFmpegEngine)?.source }
    /// The input's subtitle tracks and files, and the one shown; nil without any, or without video.
    let subtitles: SubtitleLayer?
    /// Maps HDR frames to SDR (decode thread); nil when the configuration says not to.
    private let toneMapper: ToneMapper?
    /// Turns frames upright as the stream or the configuration says; nil when they are.
    private let orienter: FrameOrienter?
    private let finished = DispatchGroup()
    /// Seeks come from the caller and from the window's keys: one at a time.
    let seekLock = NSLock()
    lazy var audioRenderer: AudioRenderer? = audioOutput.map { AudioRenderer(session: self, format: $0.format) }

    init(url: String, configuration: Player.Configuration, videoOutput: VideoOutput?, audioOutput: AudioOutput?, frameTap: FrameTap? = nil,
         openedAt: Double, emit: @escaping @Sendable (PlayerEvent) -> Void, onEnd: @escaping @Sendable () -> Void,
         onCommand: @escaping @Sendable (UserCommand) -> Void, audioTrack: Int? = nil, displayThread: DisplayThread,
         interrupt: InterruptController? = nil, records: Bool = false, testHooks: PlaybackTestHooks = PlaybackTestHooks()) throws {
        self.configuration = configuration
        if configuration.measuresLatency { control.update { $0.latencyMeter = LatencyMeter(warmup: configuration.latencyWarmup) } }
        self.displayThread = displayThread
        self.testHooks = testHooks
        self.openedAt = openedAt
        self.emit = emit
        self.onEnd = onEnd
        self.onCommand = onCommand
        let engine = try PlaybackEngines.open(url, configuration: configuration, video: videoOutput != nil, audio: audioOutput != nil,
                                              interrupt: interrupt, records: records, emit: emit)
        self.engine = engine
        info = engine.info
        isLive = configuration.live == .on || (configuration.live == .auto && LiveInputs.isLive(url: url, duration: info.format.duration, size: info.format.size, format: info.format.name))
        startTime = info.format.startTime ?? 0
        let videoStream = videoOutput == nil ? nil : engine.bestStream(of: .video)
        let audioStream = audioOutput == nil ? nil : (audioTrack ?? Self.audioStream(configuration.audioTrack, engine))
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
        self.videoOutput = videoStream == nil ? nil : videoOutput
        let streams = engine.info.streams
        let orientation = videoStream.map { stream in configuration.rotation.orientation(forStream: streams.first { $0.index == stream }?.orientation ?? .upright) } ?? .upright
        orienter = orientation.isUpright ? nil : FrameOrienter(orientation: orientation)
        toneMapper = configuration.toneMapping.map { ToneMapper(curve: $0) }
        subtitles = videoStream == nil ? nil
            : try SubtitleLayer(demuxer: (engine as? FFmpegEngine)?.source as? Demuxer, info: engine.info, files: SameNameSubtitles.files(for: url, configuration: configuration),
                                request: configuration.subtitleTrack, startTime: startTime, options: configuration.input)
        control.subtitleSettings = SubtitleSettings(delay: configuration.subtitleDelay, scale: configuration.subtitleScale)
        self.frameTap = frameTap
        self.audioOutput = audioStream == nil ? nil : audioOutput
        let requested = configuration.clockMaster
        master = configuration.untimed ? .video
            : requested == .audio && audioStream == nil ? (videoStream == nil ? .external : .video)
            : requested == .video && videoStream == nil ? .audio : requested
        let packetLimits = BlockingQueue<QueuedPacket>.Limits(bytes: configuration.packetQueueBytes, seconds: configuration.packetQueueSeconds)
        videoPackets = BlockingQueue(limits: packetLimits)
        audioPackets = BlockingQueue(limits: packetLimits)
        videoFrames = BlockingQueue(limits: .init(count: configuration.videoFrameQueueCount))
        audioFrames = BlockingQueue(limits: .init(count: configuration.audioFrameQueueCount))
    }

    var duration: Double? { info.format.duration }

    /// The stream a request picks: with no language asked for, FFmpeg's best audio stream.
    private static func audioStream(_ request: TrackRequest, _ source: any PlaybackEngine) -> Int? {
        if request == .automatic() { return source.bestStream(of: .audio) }
        return request.choose(.audio, among: Track.tracks(of: source.info))?.streamIndex
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
        engine.start(self, spawn: spawn)
        if videoStream != nil {
            finished.enter()
            displayThread.async { [self] in
                var loop = DisplayLoop(session: self)
                loop.run()
                finished.leave()
            }
        }
        if let audioOutput, let renderer = audioRenderer {
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
        videoPackets.abort()
        audioPackets.abort()
        videoFrames.abort()
        audioFrames.abort()
        engine.cancel()
        subtitles?.stop()
        stopRecording()
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

    /// Starts a new timeline at once: queues are emptied (waking blocked producers) and
    /// the read thread is told where to go.
    ///
    /// The queues move to the new serial before the reader can learn of the seek: the
    /// other way round, the first packets of the new timeline (its keyframe) could be put
    /// while a queue still had the old serial, and be dropped as stale.
    func requestSeek(to target: Double, mode: SeekMode, alsoUpdate: (PlaybackControl) -> Void = { _ in }) {
        seekLock.lock()
        defer { seekLock.unlock() }
        let serial = control.read { $0.serial } + 1
        videoPackets.flush(serial: serial)
        audioPackets.flush(serial: serial)
        videoFrames.flush(serial: serial)
        audioFrames.flush(serial: serial)
        control.update { control in
            control.serial = serial
            control.pendingSeek = .init(target: target, mode: mode)
            control.exactTarget = mode == .exact ? (serial, target) : nil
            control.readerAtEnd = false
            control.videoEnded = false
            control.audioEnded = false
            control.endReported = false
            alsoUpdate(control)
        }
        testHooks.seekPublished()
    }

    /// The engine read its input to the end on timeline `serial`.
    func readerReachedEnd(serial: Int) {
        testHooks.readerReachingEnd()
        // A seek that came while the markers were queued started a new timeline, which
        // has not been read at all: only the end of the timeline read here is recorded.
        control.update { if $0.serial == serial { $0.readerAtEnd = true } }
    }

    func queueAudio(_ frame: DecodedFrame, serial: Int) {
        guard case .audio(let audio) = frame else { return }
        let start = audio.presentationTime?.seconds ?? 0
        let length = Double(audio.sampleCount) / Double(max(audio.sampleRate, 1))
        if control.isBeforeTarget(serial: serial, time: start, duration: length) { return }
        audioFrames.put(QueuedAudioFrame(frame: audio), serial: serial)
    }

    func queueVideo(_ frame: DecodedFrame, serial: Int) {
        guard case .video(var video) = frame else { return }
        do {
            try testHooks.videoFrameDecoded(engine.kind, video.presentationTime?.seconds ?? 0)
        } catch {
            fail(error)
            return
        }
        if let toneMapper {
            do {
                video = try toneMapper.map(video)
            } catch {
                fail(error)
                return
            }
        }
        var item = QueuedVideoFrame(frame: video)
        if let orienter {
            do {
                var decoded = video
                decoded.orientation = orienter.orientation
                item = QueuedVideoFrame(frame: try orienter.orient(video), decoded: decoded)
            } catch {
                fail(error)
                return
            }
        }
        if let pts = item.pts, control.isBeforeTarget(serial: serial, time: pts, duration: item.duration) { return }
        videoFrames.put(item, serial: serial)
    }

    /// Ends the playback with `error`; only the first failure of a session counts (a
    /// stream thread that goes on meeting the same fault says it once).
    func fail(_ error: any Error) {
        let first = hasFailed.withLock { failed in
            defer { failed = true }
            return !failed
        }
        guard first else { return }
        emit(.error(PlayerError(error)))
        onEnd()
    }

    /// Whether the playback failed (``fail(_:)``): the engine's threads stop.
    let hasFailed = LockedValue(false)

    /// Called when a stream of timeline `serial` reached its end; the playback ends when
    /// all have. A call for an older timeline (a seek came meanwhile) changes nothing.
    func streamEnded(video: Bool, serial: Int) {
        let ended = control.read { control -> Bool in
            guard control.serial == serial else { return false }
            if video { control.videoEnded = true } else { control.audioEnded = true }
            guard !control.endReported,
                  control.videoEnded || videoStream == nil, control.audioEnded || audioStream == nil else { return false }
            control.endReported = true
            return true
        }
        if ended { emit(.endOfStream) }
    }

    /// Plays audio stream `index` from now on: an exact seek to the position starts a
    /// timeline on which the engine decodes that stream, as mpv's refresh seek does.
    /// Nothing of the old track is played after the switch.
    func switchAudio(to index: Int, at position: Double) throws {
        try engine.switchAudio(to: index, in: self, at: position)
    }

    var framesAllocated: Int { engine.framesAllocated }
}
