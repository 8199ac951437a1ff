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
    /// Animations drawn over the picture (gifts over a stream), on this player's time.
    public let overlays = PlayerOverlays()

    let continuation: AsyncStream<PlayerEvent>.Continuation
    let makeVideoOutput: @Sendable () -> (any VideoOutput)?
    let makeAudioOutput: @Sendable () -> (any AudioOutput)?
    /// The time every timing decision of this player's sessions asks.
    let clock: any PlaybackClock
    let openEngine: EngineOpener
    let lock = ConditionLock()
    var session: PlaybackSession?
    var currentState: PlayerState = .idle
    var wantsToPlay = false
    var url: String?
    /// Push-to-talk of the talk-back started by `talk` (ReelRTP): turns it on or off and
    /// says whether it is on now.
    var pushToTalk: (@Sendable () -> Bool)?
    let commands = DispatchQueue(label: "reel.player.commands")
    /// The counters of the last playback, kept after ``stop()``.
    var finalStatistics = PlayerStatistics()
    /// Where the last playback was when it stopped (``resumePoint``).
    var finalResumePoint: ResumePoint?
    /// Where every input's video is shown, one after another.
    let displayThread = DisplayThread(name: "reel.video.display")
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
    /// The live input's reconnects, over the sessions that replaced one another.
    var reconnects = ReconnectTally()
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
        overlays.position = { [weak self] in self?.currentTime }
        overlays.soundFormat = { [weak self] in self.flatMap { player in player.lock.withLock { player.session } }?.audioOutput?.format }
        overlays.emit = { [continuation] event in continuation.yield(event) }
    }

    deinit {
        overlays.stopAll()
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
        var statistics = sessionStatistics
        lock.withLock { reconnects.write(into: &statistics) }
        return statistics
    }

    private var sessionStatistics: PlayerStatistics {
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
        statistics.overlayFramesLate = overlays.framesLate
        statistics.bytesRead = engine.bytesRead
        statistics.reception = engine.reception
        session.writeTimeshift(into: &statistics)
        return statistics
    }

    /// Gives the window's `t` to a talk-back: `toggle` turns it on or off and says whether it is on.
    package func setPushToTalk(_ toggle: @escaping @Sendable () -> Bool) {
        lock.withLock { pushToTalk = toggle }
    }

    /// The URL being played (a playlist's current item); nil before ``open(_:startingAt:audioTrack:)``.
    public var currentURL: String? { lock.withLock { queue?.current ?? url } }

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

    /// Starts or resumes playback; after the end, plays again from the start.
    public func play() {
        guard let session = lock.withLock({ session }) else { return }
        if state == .ended { seek(to: 0) }
        // Frames stepped while the audio stood still: the audio catches up with an exact
        // seek to the picture, rather than the picture waiting for the audio.
        let stepped = session.control.update { control -> Double? in
            defer { control.steppedWhilePaused = false }
            return control.steppedWhilePaused && session.audioStream != nil ? control.shown?.pts : nil
        }
        if let stepped { session.requestSeek(to: stepped, mode: .exact) }
        session.keepInsideTimeshift(at: clock.now)
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
        // Inside a timeshift, a pause loses nothing: playing on is being behind on purpose.
        session.holdBehindLive()
        session.audioOutput?.setPaused(true)
        move(to: .paused)
    }

    /// Ends playback and closes the input and outputs; the player is `idle` again.
    public func stop() {
        let last = lock.withLock { self.session } != nil ? statistics : nil
        let point = last != nil ? resumePoint : nil
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
            if let last {
                finalStatistics = last
                finalResumePoint = point
            }
            return (self.session, heldVideoOutput, openingInterrupt)
        }
        interrupt?.cancel()
        session?.stop(closingVideoOutput: false)
        if let videoOutput { displayThread.close(videoOutput) }
        if session != nil || state != .idle { move(to: .idle) }
    }

    /// Moves to `seconds` from the start of the input; in a live input's timeshift, inside
    /// ``timeshiftWindow`` (at its end, live again as ``goLive()`` goes).
    public func seek(to seconds: Double, mode: SeekMode = .keyframe) {
        guard let session = lock.withLock({ session }) else { return }
        if let window = session.engine.timeshift?.range {
            session.seek(inTimeshift: window, to: session.startTime + seconds, mode: mode)
            return
        }
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
