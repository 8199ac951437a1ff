import Foundation
import ReelCore
import ReelFFmpeg

/// One opened input being played: the threads of SGPlayer's FFmpeg engine (read, video
/// decode, audio decode, video display; audio pulled by the device) and the queues between
/// them.
///
/// Each stream has its own decode thread fed by a packet queue bounded in bytes and
/// seconds, as in ffplay: the reader then never waits on a small frame queue of one
/// stream while the other stream's decoder still needs packets (a frame-threaded video
/// decoder holds one packet per thread before its first frame comes out).
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
    /// Opened again when it ends or fails: a live input FFmpeg reads. Reel's RTP receiver
    /// follows a sender's restart itself, and its end is the silence of `--timeout`.
    var isReconnectable: Bool { isLive && demuxer is Demuxer }
    private let testHooks: PlaybackTestHooks
    private let displayThread: DisplayThread

    let demuxer: any PlaybackSource
    private let audioDecoder: Decoder?
    let videoDecoder: Decoder?
    /// The input's subtitle tracks and files, and the one shown; nil without any, or without video.
    let subtitles: SubtitleLayer?
    /// Maps HDR frames to SDR (decode thread); nil when the configuration says not to.
    private let toneMapper: ToneMapper?
    /// Turns frames upright as the stream or the configuration says; nil when they are.
    private let orienter: FrameOrienter?
    private let framePool: FramePool
    private let finished = DispatchGroup()
    /// Seeks come from the caller and from the window's keys: one at a time.
    let seekLock = NSLock()
    lazy var audioRenderer: AudioRenderer? = audioOutput.map { AudioRenderer(session: self, format: $0.format) }

    init(url: String, configuration: Player.Configuration, videoOutput: VideoOutput?, audioOutput: AudioOutput?, frameTap: FrameTap? = nil,
         openedAt: Double, emit: @escaping @Sendable (PlayerEvent) -> Void, onEnd: @escaping @Sendable () -> Void,
         onCommand: @escaping @Sendable (UserCommand) -> Void, audioTrack: Int? = nil, displayThread: DisplayThread,
         interrupt: InterruptController? = nil, testHooks: PlaybackTestHooks = PlaybackTestHooks()) throws {
        self.configuration = configuration
        if configuration.measuresLatency { control.update { $0.latencyMeter = LatencyMeter(warmup: configuration.latencyWarmup) } }
        self.displayThread = displayThread
        self.testHooks = testHooks
        self.openedAt = openedAt
        self.emit = emit
        self.onEnd = onEnd
        self.onCommand = onCommand
        let liveByProtocol = configuration.live == .on || (configuration.live == .auto && LiveInputs.isLive(url: url))
        let demuxer = try PlaybackSources.open(url, options: liveByProtocol ? configuration.input.forLiveInput() : configuration.input,
                                               interrupt: interrupt ?? InterruptController(timeout: configuration.input.timeout),
                                               liveTarget: configuration.live == .off ? nil : configuration.liveLatency.target)
        self.demuxer = demuxer
        info = demuxer.info
        isLive = configuration.live == .on || (configuration.live == .auto && LiveInputs.isLive(url: url, duration: info.format.duration, size: info.format.size, format: info.format.name))
        startTime = info.format.startTime ?? 0
        let videoStream = videoOutput == nil ? nil : demuxer.bestStream(of: .video)
        let audioStream = audioOutput == nil ? nil : (audioTrack ?? Self.audioStream(configuration.audioTrack, demuxer))
        self.videoStream = videoStream
        self.audioStream = audioStream
        guard videoStream != nil || audioStream != nil else { throw DecodeError(.noSuchStream(.video)) }
        // Frames in flight at most: both frame queues, the ones being shown and played,
        // and what frame-threaded decoders hold (one per thread, up to 16).
        let pool = FramePool(preallocated: configuration.videoFrameQueueCount + configuration.audioFrameQueueCount + 20)
        var decoderOptions = configuration.decoder
        decoderOptions.lowDelay = decoderOptions.lowDelay || isLive
        videoDecoder = try videoStream.map { try demuxer.makeDecoder(streamIndex: $0, options: decoderOptions, framePool: pool) }
        audioDecoder = try audioStream.map { try demuxer.makeDecoder(streamIndex: $0, options: decoderOptions, framePool: pool) }
        framePool = pool
        control.audioStreamIndex = audioStream
        self.videoOutput = videoStream == nil ? nil : videoOutput
        let orientation = videoStream.map { stream in configuration.rotation.orientation(forStream: demuxer.info.streams.first { $0.index == stream }?.orientation ?? .upright) } ?? .upright
        orienter = orientation.isUpright ? nil : FrameOrienter(orientation: orientation)
        toneMapper = configuration.toneMapping.map { ToneMapper(curve: $0) }
        subtitles = videoStream == nil ? nil
            : try SubtitleLayer(demuxer: demuxer as? Demuxer, info: info, files: SameNameSubtitles.files(for: url, configuration: configuration),
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
    private static func audioStream(_ request: TrackRequest, _ source: any PlaybackSource) -> Int? {
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
        spawn("reel.read") { [self] in readLoop() }
        if videoStream != nil {
            if configuration.videoDecoding == .asynchronous {
                spawn("reel.video.decode") { [self] in
                    decodeLoop(videoPackets, videoDecoder, queue: queueVideo) { videoFrames.put(QueuedVideoFrame(frame: nil), serial: $0) }
                }
            }
            finished.enter()
            displayThread.async { [self] in
                var loop = DisplayLoop(session: self)
                loop.run()
                finished.leave()
            }
        }
        if audioStream != nil {
            spawn("reel.audio.decode") { [self] in
                decodeLoop(audioPackets, audioDecoder, takesSwitches: true, queue: queueAudio) { audioFrames.put(QueuedAudioFrame(frame: nil), serial: $0) }
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
        demuxer.cancel()
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

    // MARK: Read thread

    private func readLoop() {
        var serial = control.read { $0.serial }
        // Changes only with a seek (an audio switch comes with one): read there, not per packet.
        var audioStream = control.read { $0.audioStreamIndex }
        while !control.read({ $0.aborted }) {
            if let seek = control.read({ control -> PlaybackControl.Seek? in
                defer { control.pendingSeek = nil }
                return control.pendingSeek
            }) {
                (serial, audioStream) = control.read { ($0.serial, $0.audioStreamIndex) }
                do {
                    landingPackets = try seekLandingAtOrBefore(seek.target)
                } catch {
                    emit(.error(PlayerError(error as? InputError ?? InputError(.other, operation: .seek, url: demuxer.url))))
                }
                if configuration.videoDecoding == .synchronous { videoDecoder?.flush() }
                subtitles?.flushDecoders()
                continue
            }
            if control.read({ $0.readerAtEnd }) {
                control.lock.withLock { if control.pendingSeek == nil && !control.aborted { control.lock.wait(seconds: 0.05) } }
                continue
            }
            do {
                let held = landingPackets.isEmpty ? nil : landingPackets.removeFirst()
                guard let packet = try held ?? demuxer.readPacket() else {
                    try endOfInput(serial: serial)
                    continue
                }
                if isLive, packet.streamIndex == audioStream || packet.streamIndex == videoStream, let end = packet.endSeconds {
                    let video = packet.streamIndex == videoStream
                    let start = packet.presentationTime?.seconds ?? end
                    let jumped = control.lock.withLock { () -> Double? in
                        let newest = video ? control.newestRead.video : control.newestRead.audio
                        guard control.newestRead.isJump(to: start, video: video, serial: serial) else {
                            control.newestRead.note(end, video: video, serial: serial)
                            return nil
                        }
                        return newest
                    }
                    // Played on, the streams would stay apart (each jumps at its own packet):
                    // the input is opened again, on a new timeline.
                    if let jumped { throw InputError(.timestampsJumped(from: jumped, to: start), operation: .read, url: demuxer.url) }
                }
                if let recorder = control.read({ $0.recorder }) { recorder.take(packet) }
                if packet.streamIndex == audioStream {
                    audioPackets.put(QueuedPacket(packet: packet), serial: serial)
                } else if packet.streamIndex == videoStream {
                    if configuration.videoDecoding == .asynchronous {
                        videoPackets.put(QueuedPacket(packet: packet), serial: serial)
                    } else {
                        try videoDecoder?.decode(packet) { frame in queueVideo(frame, serial: serial) }
                    }
                } else {
                    subtitles?.take(packet)
                }
            } catch {
                if control.read({ $0.aborted }) { return }
                fail(error)
                return
            }
        }
    }

    /// Packets read while checking where a seek landed, played before reading on.
    private var landingPackets: [Packet] = []

    /// Seeks to the video keyframe at or before `target` and returns the packets read to
    /// find it. A demuxer without an index (MPEG-TS) can land after that keyframe, even
    /// after the last one (then nothing could be decoded: `--start 1` of a 2 s TS showed
    /// nothing); the seek is then made again from further back, 1 s, 2 s, 4 s, 8 s, and at
    /// last from the input's start.
    private func seekLandingAtOrBefore(_ target: Double) throws -> [Packet] {
        // Reel's own RTP source is live: it has nowhere to land.
        guard let file = demuxer as? Demuxer, let videoStream else {
            try demuxer.seek(to: MediaTime(seconds: target))
            return []
        }
        var backoff = 0.0
        while true {
            let from = target - backoff
            guard from > startTime, backoff < 8 else {
                try file.rewind()
                return []
            }
            try demuxer.seek(to: MediaTime(seconds: from))
            var held: [Packet] = []
            var landedAfter = true
            // The read ahead is bounded: a keyframe is looked for in the next 2,000 packets.
            while held.count < 2_000, let packet = try demuxer.readPacket() {
                held.append(packet)
                guard packet.streamIndex == videoStream, packet.isKeyframe else { continue }
                landedAfter = (packet.presentationTime?.seconds).map { $0 > target + 0.001 } ?? false
                break
            }
            if !landedAfter || held.count >= 2_000 { return held }
            backoff = backoff == 0 ? 1 : backoff * 2
        }
    }

    private func endOfInput(serial: Int) throws {
        if configuration.videoDecoding == .asynchronous {
            videoPackets.put(QueuedPacket(packet: nil), serial: serial)
        } else if videoStream != nil {
            try videoDecoder?.drain { frame in queueVideo(frame, serial: serial) }
            videoFrames.put(QueuedVideoFrame(frame: nil), serial: serial)
        }
        if audioStream != nil { audioPackets.put(QueuedPacket(packet: nil), serial: serial) }
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

    // MARK: Decode threads

    /// Decodes the packets of one stream as they come, flushing the decoder when a seek
    /// starts a new timeline; at the end marker drains it and queues the end with `end`.
    private func decodeLoop(_ packets: BlockingQueue<QueuedPacket>, _ decoder: Decoder?, takesSwitches: Bool = false,
                            queue: (DecodedFrame, Int) -> Void, end: (Int) -> Void) {
        guard var decoder else { return }
        var decoderSerial = -1
        while let (item, serial) = packets.take() {
            if serial != decoderSerial {
                // A track switch's new timeline brings the new stream's decoder (set
                // before the reader can queue a packet of that timeline).
                if takesSwitches, let switched = control.read({ control -> Decoder? in
                    defer { control.pendingAudioDecoder = nil }
                    return control.pendingAudioDecoder
                }) {
                    decoder = switched
                } else if decoderSerial >= 0 {
                    decoder.flush()
                }
                decoderSerial = serial
            }
            do {
                if let packet = item.packet {
                    try decoder.decode(packet) { frame in queue(frame, serial) }
                } else {
                    try decoder.drain { frame in queue(frame, serial) }
                    end(serial)
                }
            } catch {
                if !control.read({ $0.aborted }) { fail(error) }
                return
            }
        }
    }

    func fail(_ error: any Error) {
        emit(.error(PlayerError(error)))
        onEnd()
    }

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

    /// Plays audio stream `index` from now on: its decoder is made here (an error if it
    /// cannot be), and an exact seek to the position starts a timeline on which the reader
    /// routes that stream's packets and the audio thread decodes them, as mpv's refresh
    /// seek does. Nothing of the old track is played after the switch.
    func switchAudio(to index: Int, at position: Double) throws {
        let decoder = try demuxer.makeDecoder(streamIndex: index, options: configuration.decoder, framePool: framePool)
        requestSeek(to: position, mode: .exact) { control in
            control.audioStreamIndex = index
            control.pendingAudioDecoder = decoder
        }
    }

    var framesAllocated: Int { videoDecoder?.framePool.allocatedCount ?? audioDecoder?.framePool.allocatedCount ?? 0 }
}
