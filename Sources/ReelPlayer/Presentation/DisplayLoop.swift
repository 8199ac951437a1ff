import Foundation
import ReelCore

/// The video display thread, after ffplay's `video_refresh`: shows each frame when its
/// time comes on the master clock, waits when early, drops when late.
struct DisplayLoop {
    let session: PlaybackSession
    private var control: PlaybackControl { session.control }

    /// Wall time at which the frame on screen was due.
    private var frameTimer = 0.0
    private var lastShown: (pts: Double, duration: Double)?
    private var shownSerial = -1
    private var wasPaused = true
    private var lastTimeEvent = 0.0
    private var emptySince: Double?
    private var sentFirstFrame = false
    /// When the last frame was presented, while playing without a break.
    private var lastPresentedAt: Double?
    /// The frame on screen before subtitles were drawn into it, and how they were drawn:
    /// paused, a change (`v`, `j`, `z`, `x`) draws it again, as mpv does.
    private var undrawn: (frame: VideoFrame, pts: Double)?
    private var drawnLook: SubtitleLook?
    /// A live jump went ahead on the same timeline: its first frame shows at once.
    private var liveJumpsSeen = 0
    private var showsNextAtOnce = false
    /// A live video's schedule kept on the pictures' arrival (video master only).
    private var livePhase = LiveFramePhase()
    /// The picture at the head of the queue, ready and waiting for its time: since when.
    private var readySince: (serial: Int, pts: Double, at: Double)?

    init(session: PlaybackSession) {
        self.session = session
    }

    /// What the loop waits for before its next step.
    enum Wait: Equatable {
        /// Nothing: the next step comes at once.
        case none
        /// The clock reaching this time.
        case until(Double)
        /// A frame in the queue, or the clock reaching this time.
        case frame(until: Double)
    }

    /// How long the loop waits at most, so that the output's ``VideoOutput/idle(status:)``
    /// keeps the window and its keys alive.
    static let idleInterval = 0.01
    /// How long it waits at most for an output that wants no idle calls: time events and
    /// starvation are still noticed within it.
    static let quietInterval = 0.1

    static func longestWait(for output: VideoOutput) -> Double { output.wantsIdle ? idleInterval : quietInterval }

    /// Runs the loop on the display thread until the session stops.
    mutating func run() {
        guard let output = session.videoOutput else { return }
        let clock = session.clock
        let longest = Self.longestWait(for: output)
        while !control.read({ $0.aborted }) {
            switch step(output, at: clock.now) {
            case .none:
                continue
            case .until(let deadline):
                // A change of the playback (play, pause, a step, a seek, the stop) wakes it.
                let until = min(deadline, clock.now + longest)
                control.lock.withLock { if !control.aborted { clock.wait(on: control.lock, until: until) } }
            case .frame(let deadline):
                session.videoFrames.waitForElement(timeout: max(min(deadline - clock.now, longest), 0))
            }
        }
    }

    /// One step of the loop at clock time `now`: shows, drops or skips at most one frame,
    /// and says what to wait for before the next step. Tests call it directly, on a
    /// manual clock.
    mutating func step(_ output: VideoOutput, at now: Double) -> Wait {
        if output.wantsIdle {
            for command in output.idle(status: status(at: now)) { session.callbacks.onCommand(command) }
        }
        sendTimeEvent(at: now)

        let (paused, serial, rate, stepping, jumps) = control.read { ($0.paused, $0.serial, $0.rate, $0.stepsRequested > 0, $0.liveJumps) }
        if jumps != liveJumpsSeen {
            liveJumpsSeen = jumps
            showsNextAtOnce = true
        }
        if paused && shownSerial == serial && !stepping {
            redrawSubtitlesIfChanged(output)
            wasPaused = true
            lastPresentedAt = nil
            return .until(now + Self.longestWait(for: output))
        }
        if wasPaused && !paused {
            frameTimer = now
            wasPaused = false
            livePhase.restart()
        }
        guard let (item, itemSerial) = session.videoFrames.peek() else {
            watchForStarvation(serial: serial, at: now)
            // Woken by the next frame; the timeout keeps the window and events alive.
            return .frame(until: now + Self.longestWait(for: output))
        }
        if isBuffering {
            lastPresentedAt = nil
            // Resume once a few frames are ready (or the input has ended).
            guard session.videoFrames.count >= Self.framesToResume || control.read({ $0.readerAtEnd }) else {
                return .until(now + Self.bufferingPoll)
            }
            isBuffering = false
            emptySince = nil
            frameTimer = now
            livePhase.restart()
            control.setBuffering(false, at: now)
            session.callbacks.onBuffering(false)
        }
        emptySince = nil
        if itemSerial != serial {
            session.videoFrames.take(ifSerial: itemSerial)
            return .none
        }
        guard let frame = item.frame, let pts = item.pts else {
            session.videoFrames.take(ifSerial: itemSerial)
            if item.frame == nil { session.streamFinished(video: true, serial: itemSerial) }
            return .none
        }
        // Queued before a live jump set the point to go on from.
        if session.isLive, control.isBeforeTarget(serial: itemSerial, time: pts, duration: item.duration) {
            session.videoFrames.take(ifSerial: itemSerial)
            return .none
        }
        if paused && stepping && shownSerial == serial {
            // A frame step: the clocks moved to the next frame and held, then the frame
            // shown (a caller that sees the frame reads its time).
            control.update { control in
                control.stepsRequested = max(control.stepsRequested - 1, 0)
                control.steppedWhilePaused = true
                control.videoClock.set(pts, serial: serial, at: now)
                control.audioClock.set(pts, serial: serial, at: now)
                control.externalClock.set(pts, serial: serial, at: now)
            }
            show(item, frame, pts: pts, serial: serial, output: output)
            return .none
        }
        if shownSerial != serial || session.configuration.untimed || showsNextAtOnce {
            // The first frame of a timeline (after opening, seeking or a live jump) shows at once.
            if shownSerial != serial || showsNextAtOnce {
                session.frameTap?.markDiscontinuity()
                lastPresentedAt = nil
            }
            show(item, frame, pts: pts, serial: serial, output: output)
            frameTimer = now
            livePhase.restart()
            showsNextAtOnce = false
            if shownSerial != serial { session.emit(.seekCompleted(position: pts - session.startTime)) }
            shownSerial = serial
            return .none
        }

        var nominal = lastShown.map { pts - $0.pts } ?? item.duration
        if !(nominal > 0 && nominal < SyncPolicy.noSyncThreshold) { nominal = lastShown?.duration ?? item.duration }
        let drift: Double? = session.master == .video ? nil : control.read { control -> Double? in
            guard let video = control.videoClock.time(at: now, currentSerial: serial) else { return nil }
            return session.control.masterTimeUnlocked(session.master, at: now).map { video - $0 }
        }
        let delay = SyncPolicy.targetDelay(nominal: nominal / rate, drift: drift.map { $0 / rate })
        if now < frameTimer + delay {
            if readySince?.serial != serial || readySince?.pts != pts { readySince = (serial, pts, now) }
            return .until(frameTimer + delay)
        }
        frameTimer += delay
        if delay > 0 && now - frameTimer > SyncPolicy.maxThreshold { frameTimer = now }

        // Too late already for the next frame too: skip this one (not when video is master).
        if let (next, nextSerial) = session.videoFrames.peek(1), nextSerial == serial, let nextPTS = next.pts {
            let ownDuration = (nextPTS - pts) > 0 ? (nextPTS - pts) / rate : item.duration / rate
            if SyncPolicy.shouldDrop(frameEnd: frameTimer + ownDuration, now: now, isVideoMaster: session.master == .video) {
                session.videoFrames.take(ifSerial: serial)
                control.record { $0.statistics.framesDropped += 1 }
                lastShown = (pts, item.duration)
                control.update { $0.videoClock.set(pts, serial: serial, at: now) }
                return .none
            }
        }
        show(item, frame, pts: pts, serial: serial, output: output)
        followArrival(waited: readySince.flatMap { $0.serial == serial && $0.pts == pts ? now - $0.at : nil } ?? 0,
                      shown: pts, duration: nominal, serial: serial, at: now)
        return .none
    }

    /// A live video that is its own master moves its schedule earlier when every picture
    /// of the last second waited, ready, for its turn (``LiveFramePhase``), as far as its
    /// target allows: the first picture's phase no longer costs up to a frame of latency.
    /// Pictures queued behind the one at `shown` (lasting `duration`) are the buffer a
    /// target asks for as far as the target reaches; beyond it they are a backlog that the
    /// catch-up, acting only on more than target + slack, would keep for the whole run (a
    /// start that left two pictures queued at `--latency 0` cost 65 ms instead of 19), so
    /// the schedule moves earlier by what lies beyond the target, a wait at a time. Not
    /// while the catch-up plays faster (that is its backlog), nor behind on purpose.
    private mutating func followArrival(waited: Double, shown: Double, duration: Double, serial: Int, at now: Double) {
        guard session.isLive, session.master == .video, !session.configuration.untimed,
              let advance = livePhase.shown(waited: waited, at: now) else { return }
        let queued = session.videoFrames.peek()?.serial == serial
        let latency = control.read { control -> Double? in
            // Behind on purpose in a timeshift, the pictures queued are what the viewer came back for.
            guard control.newestRead.serial == serial, control.catchUpFactor == 1, !control.behindLiveOnPurpose else { return nil }
            return control.newestRead.edge(hasVideo: true, hasAudio: false).map { $0 - shown }
        }
        guard let latency else { return }
        // With pictures queued, the one shown is not the newest: its own frame is not part
        // of what the schedule may give up.
        let allowed = min(advance, latency - session.configuration.liveLatency.target - (queued ? duration : 0))
        if allowed > LiveFramePhase.tolerance { frameTimer -= allowed }
    }

    /// Paused: draws the frame on screen again when the subtitles' look changed.
    private mutating func redrawSubtitlesIfChanged(_ output: VideoOutput) {
        guard let subtitles = session.subtitles, let undrawn else { return }
        let look = subtitles.look(control.read { $0.subtitleSettings })
        guard look != drawnLook else { return }
        drawnLook = look
        let frame = present(undrawn.frame, at: undrawn.pts, with: subtitles, settings: look.settings, on: output)
        control.update { $0.shownFrame = frame }
    }

    /// Shows `frame` with its subtitles: drawn into it, or over the view an output makes of
    /// it (a 360° view); returns the frame as shown (the source, for a view).
    private func present(_ frame: VideoFrame, at pts: Double, with subtitles: SubtitleLayer, settings: SubtitleSettings, on output: VideoOutput) -> VideoFrame {
        let position = pts - session.startTime
        if output.showsAView {
            let session = session
            output.present(frame) { subtitles.draw(into: Self.gifts(of: session, over: $0, at: position), at: position, settings: settings) }
            return frame
        }
        let drawn = subtitles.draw(into: frame, at: position, settings: settings)
        output.present(drawn)
        return drawn
    }

    /// `view` with the gifts of `session` due at `position` drawn over it.
    private static func gifts(of session: PlaybackSession, over view: VideoFrame, at position: Double) -> VideoFrame {
        session.overlays?.draw(over: view, at: position, waiting: session.configuration.untimed) ?? view
    }

    /// Starved this long while input should still be coming: buffering.
    static let starvationLimit = 0.25
    static let framesToResume = 3
    /// How often a buffering display looks whether enough frames came.
    static let bufferingPoll = 0.005
    private var isBuffering = false

    private mutating func watchForStarvation(serial: Int, at now: Double) {
        guard !isBuffering, shownSerial == serial, !session.configuration.untimed,
              !control.read({ $0.readerAtEnd || $0.videoEnded || $0.paused }) else {
            emptySince = nil
            return
        }
        let since = emptySince ?? now
        emptySince = since
        if now - since > Self.starvationLimit {
            isBuffering = true
            control.setBuffering(true, at: now)
            session.callbacks.onBuffering(true)
        }
    }

    private mutating func show(_ item: QueuedVideoFrame, _ frame: VideoFrame, pts: Double, serial: Int, output: VideoOutput) {
        // Removed only if still there: a seek meanwhile flushed it, and the new head is not ours.
        session.videoFrames.take(ifSerial: serial)
        let decoded = item.decoded ?? frame
        var frame = frame
        // What taps get unless told to take the frames as shown: the decoded picture, with
        // the gifts over it when it is the one shown (not turned).
        var tapped = decoded
        // Gifts under the subtitles, which stay readable over them; over a 360° view rather
        // than into the sphere the view is made from.
        if !output.showsAView, let overlays = session.overlays,
           let drawn = overlays.draw(over: frame, at: pts - session.startTime, waiting: session.configuration.untimed) {
            frame = drawn
            if item.decoded == nil { tapped = drawn }
        }
        if let subtitles = session.subtitles {
            let look = subtitles.look(control.read { $0.subtitleSettings })
            undrawn = (frame, pts)
            drawnLook = look
            frame = present(frame, at: pts, with: subtitles, settings: look.settings, on: output)
        } else if output.showsAView, session.overlays != nil {
            let (session, position) = (session, pts - session.startTime)
            output.present(frame) { Self.gifts(of: session, over: $0, at: position) }
        } else {
            output.present(frame)
        }
        if session.configuration.measuresLatency {
            let clock = LatencyTimecode.now()
            let code = LatencyTimecode.read(decoded)
            control.update { $0.latencyMeter?.add(code: code, at: clock) }
        }
        if !output.feedsFrameTap {
            session.frameTap?.deliver(session.configuration.tapsOrientedFrames ? frame : tapped, waiting: session.configuration.untimed)
        }
        lastShown = (pts, item.duration)
        let shownAt = session.clock.now
        let latency = shownAt - session.openedAt
        let interval = lastPresentedAt.map { shownAt - $0 }
        lastPresentedAt = shownAt
        var loopStart: Double?
        control.update { control in
            loopStart = control.abLoop.takeJump(at: pts - session.startTime)
            control.videoClock.set(pts, serial: serial, at: shownAt)
            control.videoClock.setSpeed(control.rate, at: shownAt)
            if control.externalClock.time(at: shownAt, currentSerial: serial) == nil {
                control.externalClock.set(pts, serial: serial, at: shownAt)
                control.externalClock.setSpeed(control.rate, at: shownAt)
                control.externalClock.isPaused = control.paused
            }
            control.shown = (pts, item.duration, serial)
            control.shownFrame = frame
            control.statistics.framesShown += 1
            if let interval { control.statistics.longestFrameInterval = max(control.statistics.longestFrameInterval ?? 0, interval) }
            if let audio = control.audioClock.time(at: shownAt, currentSerial: serial) { control.statistics.avOffset = pts - audio }
            if control.statistics.firstFrameLatency == nil { control.statistics.firstFrameLatency = latency }
        }
        if !sentFirstFrame {
            sentFirstFrame = true
            session.emit(.firstFrame(latency: latency))
        }
        if let loopStart { session.requestSeek(to: session.startTime + loopStart, mode: .exact) }
    }

    private mutating func sendTimeEvent(at now: Double) {
        guard now - lastTimeEvent >= session.configuration.timeUpdateInterval else { return }
        lastTimeEvent = now
        if let position = control.position(session.master, at: now) {
            session.emit(.time(position: position - session.startTime))
        }
    }

    private func status(at now: Double) -> PlaybackStatus {
        let position = (control.position(session.master, at: now) ?? session.startTime) - session.startTime
        var status = control.read { control in
            PlaybackStatus(position: position, duration: session.duration, state: control.paused ? .paused : .playing,
                           volume: control.volume, muted: control.muted, rate: control.rate)
        }
        status.chapterTitle = session.chapters.index(at: position).flatMap { session.chapters.chapters[$0].title }
        status.timeshiftWindow = session.timeshiftWindow
        status.input = session.info.format.url
        status.message = control.read { control in control.message.flatMap { $0.until > now ? $0.text : nil } }
        return status
    }
}

extension PlaybackControl {
    /// ``masterTime(_:at:)`` for callers that hold the lock already.
    func masterTimeUnlocked(_ master: ClockMaster, at now: Double) -> Double? {
        switch master {
        case .audio: audioClock.time(at: now, currentSerial: serial)
        case .video: videoClock.time(at: now, currentSerial: serial)
        case .external: externalClock.time(at: now, currentSerial: serial)
        }
    }
}
