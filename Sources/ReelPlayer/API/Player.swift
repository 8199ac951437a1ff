import Foundation
import ReelCore
import ReelFFmpeg

/// Plays a file or stream: video to a `VideoOutput`, audio to an `AudioOutput`, kept in
/// sync by a master clock (audio by default), as mpv and ffplay do.
///
/// All methods may be called from any thread. Events arrive on ``events``.
public final class Player: @unchecked Sendable {
    /// How this player plays, as given at creation.
    public let configuration: Configuration
    /// State changes, time updates, the first frame, seeks, the end, errors.
    public let events: AsyncStream<PlayerEvent>
    /// Every presented frame, for other consumers (`FrameTap/subscribe(format:bufferLimit:)`).
    public let frameTap: FrameTap

    let continuation: AsyncStream<PlayerEvent>.Continuation
    private let makeVideoOutput: @Sendable () -> (any VideoOutput)?
    private let makeAudioOutput: @Sendable () -> (any AudioOutput)?
    /// The time every timing decision of this player's sessions asks.
    let clock: any PlaybackClock
    private let openEngine: EngineOpener
    let lock = ConditionLock()
    var session: PlaybackSession?
    private var currentState: PlayerState = .idle
    var wantsToPlay = false
    var url: String?
    private let commands = DispatchQueue(label: "reel.player.commands")
    /// The counters of the last playback, kept after ``stop()``.
    private var finalStatistics = PlayerStatistics()
    /// Where every input's video is shown, one after another.
    private let displayThread = DisplayThread(name: "reel.video.display")
    /// The playlist being played; nil when one input was opened.
    var queue: Playlist?
    /// The video output of the input playing, kept to show the next playlist item.
    var heldVideoOutput: VideoOutput?
    /// Moves on at each open and stop: events of an input replaced meanwhile are ignored.
    var generation = 0
    /// The open under way, which ``stop()`` interrupts.
    var openingInterrupt: InterruptController?
    /// The recording asked for (``startRecording(to:segmentSeconds:)``); each input opened
    /// while it runs records into its next file.
    var recording: Recording?
    /// Playlist items are opened here, one at a time, whatever asked for them.
    let itemQueue = DispatchQueue(label: "reel.player.items")

    /// - Parameters:
    ///   - configuration: queues, clocks, decoding and input options.
    ///   - videoOutput: makes the video output for each opened input (`nil`: no video).
    ///   - audioOutput: makes the audio output for each opened input (`nil`: no audio).
    ///   - frameTap: where presented frames go for other consumers; a new one by default.
    public convenience init(configuration: Configuration = Configuration(),
                            frameTap: FrameTap = .withLibswscaleFallback(),
                            videoOutput: @escaping @Sendable () -> (any VideoOutput)?,
                            audioOutput: @escaping @Sendable () -> (any AudioOutput)?) {
        self.init(configuration: configuration, frameTap: frameTap, videoOutput: videoOutput, audioOutput: audioOutput,
                  clock: MonotonicPlaybackClock.shared, openEngine: PlaybackEngines.open)
    }

    /// A player on `clock` whose engines `openEngine` makes: tests hand it a manual clock
    /// and a fake engine.
    init(configuration: Configuration, frameTap: FrameTap, videoOutput: @escaping @Sendable () -> (any VideoOutput)?,
         audioOutput: @escaping @Sendable () -> (any AudioOutput)?, clock: any PlaybackClock, openEngine: @escaping EngineOpener) {
        self.configuration = configuration
        self.frameTap = frameTap
        self.makeVideoOutput = videoOutput
        self.makeAudioOutput = audioOutput
        self.clock = clock
        self.openEngine = openEngine
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1024))
    }

    deinit {
        session?.stop(closingVideoOutput: false)
        if let heldVideoOutput { displayThread.close(heldVideoOutput) }
        displayThread.end()
        // Subscribers waiting for frames hear that none will come.
        frameTap.finishAll()
        continuation.finish()
    }

    // MARK: State

    /// Where the player is now: idle, opening, playing, paused, ended…
    public var state: PlayerState { lock.withLock { currentState } }

    /// Seconds from the start of the input, on the master clock.
    public var currentTime: Double? {
        guard let session = lock.withLock({ session }) else { return nil }
        return session.control.position(session.master, at: clock.now).map { $0 - session.startTime }
    }

    /// The input's length in seconds; `nil` before opening and for live streams.
    public var duration: Double? { lock.withLock { session?.duration } }

    /// How far ahead of ``currentTime`` media is read and queued, seconds.
    public var bufferedTime: Double? {
        guard let session = lock.withLock({ session }), let now = currentTime else { return nil }
        let engine = session.engine.statistics
        let queued = max(engine.videoSecondsQueued, engine.audioSecondsQueued + session.audioFrames.duration)
        return session.control.read { $0.readerAtEnd } ? session.duration : now + queued
    }

    /// Counters of the current playback, or of the last one after ``stop()``.
    public var statistics: PlayerStatistics {
        guard let session = lock.withLock({ session }) else { return lock.withLock { finalStatistics } }
        var statistics = session.control.read { $0.statistics }
        statistics.position = currentTime ?? 0
        let engine = session.engine.statistics
        statistics.engine = session.engine.kind
        statistics.input = session.engine.info.format.longName
        statistics.adaptiveBandwidth = engine.adaptiveBandwidth
        statistics.variant = engine.variant
        statistics.videoDecoder = engine.videoDecoder.map { $0.isHardware ? "\($0.name) (hardware)" : $0.name }
        statistics.videoPacketsQueued = engine.videoPacketsQueued
        statistics.audioPacketsQueued = engine.audioPacketsQueued
        statistics.videoFramesQueued = session.videoFrames.count
        statistics.audioFramesQueued = session.audioFrames.count
        statistics.framesAllocated = engine.framesAllocated
        statistics.glassToGlass = session.control.read { $0.latencyMeter }?.summary
        return statistics
    }

    /// The input's description, once opened.
    public var mediaInfo: MediaInfo? { lock.withLock { session?.info } }

    /// The input's chapters in order of their start, times from the input's start as
    /// ``currentTime`` gives them; empty before opening or when it has none.
    public var chapters: [Chapter] { lock.withLock { session }?.chapters.chapters ?? [] }

    /// The index in ``chapters`` of the chapter being played (before the first frame, the
    /// one at the start).
    public var currentChapter: Int? {
        guard let session = lock.withLock({ session }) else { return nil }
        return session.chapters.index(at: currentTime ?? 0)
    }

    /// Goes to the start of chapter `index` of ``chapters`` (exactly, as mpv does).
    public func seek(toChapter index: Int) {
        let chapters = self.chapters
        guard chapters.indices.contains(index) else { return }
        seek(to: chapters[index].startTime, mode: .exact)
    }

    // MARK: Control

    /// Opens `url` (a file or any URL FFmpeg reads); the player is then `ready`, paused
    /// on its first frame (the one at `start` seconds when given: an exact seek before
    /// anything is shown). Throws, and moves to `failed`, when the input cannot be played.
    ///
    /// Cancelling the calling task interrupts a blocking open (a slow server, a stalled
    /// network): the player goes back to `idle` and this throws `CancellationError`.
    public func open(_ url: String, startingAt start: Double? = nil, audioTrack: Int? = nil) async throws {
        stop()
        try await openInput(url, startingAt: start, audioTrack: audioTrack)
    }

    /// Opens `url` on a stopped player, keeping its playlist.
    private func openInput(_ url: String, startingAt start: Double?, audioTrack: Int?) async throws {
        move(to: .opening)
        let expected = lock.withLock { generation }
        do {
            let session = try await withTaskCancellationHandler {
                try await onItemQueue { [self] in
                    try replaceSession(ifStill: expected) { replacement in
                        lock.withLock {
                            self.url = url
                            wantsToPlay = false
                        }
                        return try replacement.open(url, startingAt: start, audioTrack: audioTrack)
                    }
                }
            } onCancel: { [weak self] in
                self?.lock.withLock { self?.openingInterrupt }?.cancel()
            }
            // Stopped or cancelled as the open finished.
            guard session != nil, !Task.isCancelled else {
                if session != nil { stop() }
                throw CancellationError()
            }
            move(to: .ready)
        } catch where error is CancellationError || Task.isCancelled || lock.withLock({ generation != expected + 1 }) {
            // Cancelled, or stopped while opening (the claim moved the generation on by one).
            if state == .opening { move(to: .idle) }
            throw CancellationError()
        } catch {
            move(to: .failed)
            continuation.yield(.error(PlayerError(error)))
            throw error
        }
    }

    /// Opens and starts `url`'s session (blocking): paused on its first frame, shown by
    /// `videoOutput` when one is kept from the input before, else by a new output.
    func makeSession(url: String, startingAt start: Double?, audioTrack: Int?, videoOutput: VideoOutput?,
                     interrupt: InterruptController, generation: Int, engine: PlaybackEngineKind? = nil) throws -> PlaybackSession {
        var configuration = configuration
        if let engine { configuration.engine = .only(engine) }
        let openedAt = clock.now
        let outputs = PlaybackSession.Outputs(video: videoOutput ?? makeVideoOutput(), audio: makeAudioOutput(), tap: frameTap,
                                              displayThread: displayThread)
        let callbacks = PlaybackSession.Callbacks(
            emit: { [weak self] event in self?.handle(event, generation: generation) },
            onEnd: { [weak self] in self?.sessionFailed(generation: generation) },
            onCommand: { [weak self] command in self?.perform(command) },
            onBuffering: { [weak self] buffering in
                guard let self else { return }
                if buffering { move(to: .buffering) } else if state == .buffering { move(to: .playing) }
            })
        let opened = try openEngine(url, configuration, outputs.video != nil, outputs.audio != nil, interrupt,
                                    lock.withLock { recording != nil }, callbacks.emit)
        // An engine not started has no threads: one the session refuses goes with it (its
        // stop would cancel the open's interrupt, which says the player was stopped).
        let session = try PlaybackSession(url: url, engine: opened, configuration: configuration, outputs: outputs, callbacks: callbacks,
                                          clock: clock, openedAt: openedAt, audioTrack: audioTrack)
        if let start { session.requestSeek(to: session.startTime + max(start, 0), mode: .exact) }
        if let recording = lock.withLock({ self.recording }) {
            do {
                try session.record(recording)
            } catch {
                recording.failed(error as? OutputError ?? OutputError(recording.path, "\(error)"))
                continuation.yield(.recordingFailed(PlayerError(error)))
            }
        }
        do {
            try session.start()
        } catch {
            session.stop(closingVideoOutput: videoOutput == nil)
            throw error
        }
        return session
    }

    /// Starts or resumes playback; after the end, plays again from the start.
    public func play() {
        guard let session = lock.withLock({ session }) else { return }
        if state == .ended { seek(to: 0) }
        // Frames stepped while the audio stood still: the audio catches up with an exact
        // seek to the picture, rather than the picture waiting for the audio.
        let stepped = session.control.read { control -> Double? in
            defer { control.steppedWhilePaused = false }
            return control.steppedWhilePaused && session.audioStream != nil ? control.shown?.pts : nil
        }
        if let stepped { session.requestSeek(to: stepped, mode: .exact) }
        lock.withLock { wantsToPlay = true }
        session.control.setPaused(false, at: clock.now)
        session.audioOutput?.setPaused(false)
        move(to: .playing)
    }

    /// Pauses playback; the frame on screen stays.
    public func pause() {
        guard let session = lock.withLock({ session }) else { return }
        lock.withLock { wantsToPlay = false }
        session.control.setPaused(true, at: clock.now)
        session.audioOutput?.setPaused(true)
        move(to: .paused)
    }

    /// Ends playback and closes the input and outputs; the player is `idle` again.
    public func stop() {
        let last = lock.withLock { self.session } != nil ? statistics : nil
        let (session, videoOutput, interrupt) = lock.withLock { () -> (PlaybackSession?, VideoOutput?, InterruptController?) in
            defer {
                self.session = nil
                heldVideoOutput = nil
                queue = nil
                openingInterrupt = nil
                generation += 1
                // A reconnect waiting for its next attempt sees the stop at once.
                lock.broadcast()
            }
            if let last { finalStatistics = last }
            return (self.session, heldVideoOutput, openingInterrupt)
        }
        interrupt?.cancel()
        session?.stop(closingVideoOutput: false)
        if let videoOutput { displayThread.close(videoOutput) }
        if session != nil || state != .idle { move(to: .idle) }
    }

    /// Moves to `seconds` from the start of the input.
    public func seek(to seconds: Double, mode: SeekMode = .keyframe) {
        guard let session = lock.withLock({ session }) else { return }
        let limit = session.duration ?? .infinity
        session.requestSeek(to: session.startTime + min(max(seconds, 0), limit), mode: mode)
        if state == .ended { move(to: lock.withLock { wantsToPlay } ? .playing : .paused) }
    }

    /// Playback speed, 0.5 to 2; audio keeps its pitch.
    public var rate: Double {
        get { lock.withLock { session }?.control.read { $0.userRate } ?? 1 }
        set {
            let rate = min(max(newValue, 0.5), 2)
            lock.withLock { session }?.control.setRate(rate, at: clock.now)
        }
    }

    /// Loudness, 0 to 1 (a cubic-ish curve: the gain is volume squared).
    public var volume: Double {
        get { lock.withLock { session }?.control.read { $0.volume } ?? 1 }
        set { lock.withLock { session }?.control.update { $0.volume = min(max(newValue, 0), 1) } }
    }

    /// Silences the audio without changing ``volume``.
    public var muted: Bool {
        get { lock.withLock { session }?.control.read { $0.muted } ?? false }
        set { lock.withLock { session }?.control.update { $0.muted = newValue } }
    }

    /// The input's video, audio and subtitle tracks, numbered within their type as mpv
    /// numbers them, then the subtitle files loaded beside it; empty before opening.
    public var tracks: [Track] {
        guard let session = lock.withLock({ session }) else { return [] }
        let own = Track.tracks(of: session.info)
        guard let subtitles = session.subtitles else { return own }
        return own.filter { $0.type != .subtitle } + subtitles.tracks
    }

    /// The subtitle track shown, if any.
    public var currentSubtitleTrack: Track? { lock.withLock { session }?.subtitles?.shown }

    /// Shows subtitle track `number` (`Track.number` of a subtitle track in ``tracks``),
    /// or none for nil. Text tracks switch at once, with the events read so far.
    public func selectSubtitleTrack(_ number: Int?) throws {
        guard let number else {
            try lock.withLock { session }?.subtitles?.show(nil)
            return
        }
        guard let subtitles = lock.withLock({ session })?.subtitles,
              let track = subtitles.tracks.first(where: { $0.number == number }) else { throw TrackError.noSuchSubtitleTrack(number) }
        try subtitles.show(track)
    }

    /// Whether the subtitle track shown is drawn (mpv's `v`).
    public var subtitlesVisible: Bool {
        get { lock.withLock { session }?.control.read { $0.subtitleSettings.visible } ?? true }
        set { lock.withLock { session }?.control.update { $0.subtitleSettings.visible = newValue } }
    }

    /// Seconds subtitles show later than their times say (earlier when negative; `z`/`x`).
    public var subtitleDelay: Double {
        get { lock.withLock { session }?.control.read { $0.subtitleSettings.delay } ?? configuration.subtitleDelay }
        set { lock.withLock { session }?.control.update { $0.subtitleSettings.delay = newValue } }
    }

    /// The subtitles' text size factor, 0.1 to 10 (mpv's `--sub-scale`).
    public var subtitleScale: Double {
        get { lock.withLock { session }?.control.read { $0.subtitleSettings.scale } ?? configuration.subtitleScale }
        set { lock.withLock { session }?.control.update { $0.subtitleSettings.scale = min(max(newValue, 0.1), 10) } }
    }

    /// The audio track being played, if any.
    public var currentAudioTrack: Track? {
        guard let index = lock.withLock({ session })?.control.read({ $0.audioStreamIndex }) else { return nil }
        return tracks.first { $0.type == .audio && $0.streamIndex == index }
    }

    /// Switches to audio stream `index` (a stream index of ``mediaInfo``, as
    /// `Track.streamIndex` gives it), keeping the position and whether it was playing.
    ///
    /// While audio plays, the switch happens in place, as mpv's: the new stream's decoder is
    /// opened and an exact seek to the position starts it there (the picture stays, the
    /// sound changes within a few tens of milliseconds). A player opened without audio
    /// opens the input again with that stream.
    public func selectAudioTrack(_ index: Int) async throws {
        guard tracks.contains(where: { $0.type == .audio && $0.streamIndex == index }) else { throw TrackError.noSuchAudioStream(index) }
        if let session = lock.withLock({ session }), session.audioStream != nil {
            guard session.control.read({ $0.audioStreamIndex }) != index else { return }
            let position = session.control.position(session.master, at: clock.now) ?? session.startTime
            try session.switchAudio(to: index, at: position)
            return
        }
        guard let url = lock.withLock({ self.url }) else { return }
        let position = currentTime ?? 0
        let (playing, playlist) = lock.withLock { (wantsToPlay, queue) }
        stop()
        lock.withLock { queue = playlist }
        try await openInput(url, startingAt: position, audioTrack: index)
        if playing { play() } else { pause() }
    }

    // MARK: Frames

    /// Shows the next frame and stays paused (mpv's `.`); pauses first when playing.
    public func stepForward() {
        guard let session = lock.withLock({ session }) else { return }
        if state != .paused && state != .ready { pause() }
        session.control.update { $0.stepsRequested += 1 }
    }

    /// Shows the frame before the one on screen and stays paused (mpv's `,`): an exact
    /// seek to the middle of the frame before, which lands on it whatever the GOP.
    public func stepBackward() {
        guard let session = lock.withLock({ session }) else { return }
        if state != .paused && state != .ready { pause() }
        guard let shown = session.control.read({ control -> (pts: Double, duration: Double, serial: Int)? in
            control.stepsRequested = 0
            return control.shown
        }) else { return }
        let frameDuration = shown.duration > 0 ? shown.duration : session.nominalFrameDuration
        guard shown.pts - session.startTime > frameDuration / 2 else { return }
        session.requestSeek(to: shown.pts - frameDuration / 2, mode: .exact)
    }

    /// The frame on screen (upright, at the video's own size), or nil before the first.
    public var currentFrame: VideoFrame? { lock.withLock { session }?.control.read { $0.shownFrame } }

    /// Writes the frame on screen to `path` as PNG (RGB, at the video's own size).
    public func screenshot(to path: String) throws {
        guard let frame = currentFrame else { throw ScreenshotError.noFrame }
        try PNGWriter.write(frame, to: path)
    }

    /// Writes the frame on screen to `directory` under mpv's naming (`reel-shot0001.png`,
    /// the first number not taken) and returns the file's path.
    @discardableResult
    public func screenshot(inDirectory directory: String) throws -> String {
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        guard let name = ScreenshotNames.next(existing: existing) else { throw ScreenshotError.namesExhausted(directory) }
        let path = (directory as NSString).appendingPathComponent(name)
        try screenshot(to: path)
        return path
    }

    /// The A-B loop: once both points are set, playback that reaches B seeks exactly to A.
    public var abLoop: ABLoop {
        get { lock.withLock { session }?.control.read { $0.abLoop } ?? ABLoop() }
        set { lock.withLock { session }?.control.update { $0.abLoop = newValue } }
    }

    /// Shows `text` on the window's display for `seconds`.
    public func showMessage(_ text: String, seconds: Double = 2) {
        let until = clock.now + seconds
        lock.withLock { session }?.control.update { $0.message = (text, until) }
    }

    // MARK: Inside

    func move(to next: PlayerState) {
        let moved = lock.withLock { () -> Bool in
            guard currentState != next, currentState.canMove(to: next) else { return false }
            currentState = next
            return true
        }
        if moved { continuation.yield(.stateChanged(next)) }
    }

    private func handle(_ event: PlayerEvent, generation expected: Int) {
        let (current, playsList) = lock.withLock { (generation == expected, queue != nil) }
        guard current else { return }
        switch event {
        case .endOfStream where reconnects(generation: expected):
            reconnect(after: "the live input ended", generation: expected)
        case .error(let error) where reconnects(generation: expected):
            reconnect(after: error.description, generation: expected)
        case .error(let error) where fallsBackMidStream(error, generation: expected):
            fallBack(after: error, generation: expected)
        case .endOfStream where playsList:
            queuedItemEnded(generation: expected)
        case .error(let error) where playsList:
            queuedItemFailed(error, generation: expected)
        case .endOfStream:
            continuation.yield(event)
            move(to: .ended)
        default:
            continuation.yield(event)
        }
    }

    private func sessionFailed(generation expected: Int) {
        if lock.withLock({ generation == expected && queue == nil }) { move(to: .failed) }
    }

    private func perform(_ command: UserCommand) {
        commands.async { [self] in
            switch command {
            case .togglePause: state == .playing ? pause() : play()
            case .seekBy(let delta): seek(to: (currentTime ?? 0) + delta)
            case .seekTo(let fraction): seek(to: fraction * (duration ?? 0))
            case .changeVolume(let delta): volume += delta
            case .toggleMute: muted.toggle()
            case .changeRate(let delta): rate += delta
            case .changeChapter(let steps):
                guard let session = lock.withLock({ session }), !session.chapters.chapters.isEmpty else { return }
                if let target = session.chapters.target(from: currentTime ?? 0, steps: steps) {
                    seek(toChapter: target)
                } else if steps > 0, let duration {
                    // Past the last chapter: the end, as mpv goes.
                    seek(to: duration, mode: .exact)
                } else {
                    seek(to: 0, mode: .exact)
                }
            case .stepFrame(let forward): forward ? stepForward() : stepBackward()
            case .screenshot:
                do {
                    let path = try screenshot(inDirectory: configuration.screenshotDirectory)
                    showMessage("Screenshot: \((path as NSString).lastPathComponent)")
                    continuation.yield(.screenshotSaved(path: path))
                } catch {
                    showMessage("Screenshot failed: \(error)")
                    continuation.yield(.screenshotFailed(reason: "\(error)"))
                }
            case .cycleAudioTrack:
                let audio = tracks.filter { $0.type == .audio }
                guard let current = currentAudioTrack, let position = audio.firstIndex(of: current), audio.count > 1 else {
                    showMessage(audio.count > 1 ? "No audio playing" : "One audio track")
                    return
                }
                let next = audio[(position + 1) % audio.count]
                Task { [self] in
                    do {
                        try await selectAudioTrack(next.streamIndex)
                        showMessage(next.description)
                    } catch {
                        showMessage("Audio track: \(error)")
                    }
                }
            case .cycleSubtitleTrack:
                guard let subtitles = lock.withLock({ session })?.subtitles else {
                    showMessage("No subtitles")
                    return
                }
                // mpv's order: each track in turn, then none.
                let shownable = subtitles.tracks.filter(subtitles.canShow)
                let position = subtitles.shown.flatMap { shownable.firstIndex(of: $0) }
                let next = position.map { $0 + 1 < shownable.count ? shownable[$0 + 1] : nil } ?? shownable.first
                try? subtitles.show(next)
                showMessage(next.map { "Subtitles: \($0.description)" } ?? "Subtitles: none")
            case .toggleSubtitles:
                subtitlesVisible.toggle()
                showMessage(subtitlesVisible ? "Subtitles shown" : "Subtitles hidden")
            case .changeSubtitleDelay(let delta):
                subtitleDelay = ((subtitleDelay + delta) * 1000).rounded() / 1000
                showMessage("Subtitle delay: \(Int((subtitleDelay * 1000).rounded())) ms")
            case .toggleABLoop:
                var loop = abLoop
                loop.toggle(at: currentTime ?? 0)
                abLoop = loop
                showMessage(loop.description)
            case .movePlaylist(let offset): movePlaylistFromKey(by: offset)
            case .toggleFullscreen: break
            case .quit: stop()
            }
        }
    }
}

extension Player {
    /// A player with no screen and no sound card: frames are recorded, audio is consumed
    /// in real time from a virtual device clock (``HeadlessVideoOutput``, ``HeadlessAudioOutput``).
    public static func headless(configuration: Configuration = Configuration(),
                                video: HeadlessVideoOutput = HeadlessVideoOutput(),
                                audio: HeadlessAudioOutput? = nil) -> Player {
        let audioOutput = audio ?? HeadlessAudioOutput(untimed: configuration.untimed)
        return Player(configuration: configuration, videoOutput: { video }, audioOutput: { audioOutput })
    }
}
