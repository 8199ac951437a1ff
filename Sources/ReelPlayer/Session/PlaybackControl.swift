import ReelCore

/// What the threads of one playback share, behind one lock: the serial of the current
/// timeline (bumped by every seek), pause, rate, volume, the clocks and the counters.
final class PlaybackControl: @unchecked Sendable {
    struct NewestRead {
        var serial: Int
        var video: Double?
        var audio: Double?

        /// Where media is there for every stream played: the stream that arrives last
        /// (a muxer holds audio back to interleave it) sets the live edge.
        func edge(hasVideo: Bool, hasAudio: Bool) -> Double? {
            switch (hasVideo ? video : nil, hasAudio ? audio : nil) {
            case let (video?, audio?): min(video, audio)
            case let (video?, nil): hasAudio ? nil : video
            case let (nil, audio?): hasVideo ? nil : audio
            case (nil, nil): nil
            }
        }

        /// Whether a packet of the stream starting at `start` jumped away from the newest
        /// one (``LiveTimestamps/isJump(from:to:)``).
        func isJump(to start: Double, video isVideo: Bool, serial: Int) -> Bool {
            guard serial == self.serial, let newest = isVideo ? video : audio else { return false }
            return LiveTimestamps.isJump(from: newest, to: start)
        }

        mutating func note(_ end: Double, video isVideo: Bool, serial: Int) {
            if serial != self.serial { self = NewestRead(serial: serial) }
            if isVideo { video = max(video ?? end, end) } else { audio = max(audio ?? end, end) }
        }
    }

    let lock = ConditionLock()
    var serial = 0
    var paused = true
    /// Waiting for input: the clocks stand still and audio is silent, without the user pausing.
    var buffering = false
    var aborted = false
    /// The rate played at: the caller's, times a live input's catch-up factor.
    var rate = 1.0
    var userRate = 1.0
    var catchUpFactor = 1.0
    /// The end of the newest packet read of each stream played (a live input), on
    /// timeline `serial`.
    var newestRead = NewestRead(serial: -1)
    /// Jumps a live input made ahead on the same timeline: the display shows the next
    /// frame at once, and the audio renderer starts its media time anew, at each.
    var liveJumps = 0
    /// The viewer paused or went back inside a timeshift: live catch-up waits until
    /// ``Player/goLive()``, or until playing brings the latency back to its target.
    var behindLiveOnPurpose = false
    var volume = 1.0
    var muted = false
    /// Where the newest seek goes: the position until a frame of it shows.
    var seekTarget: Double?
    /// Frames before this media time are not shown (an exact seek), for this serial.
    var exactTarget: (serial: Int, time: Double)?
    var readerAtEnd = false
    var videoEnded = false
    var audioEnded = false
    /// The end of this serial's timeline was announced.
    var endReported = false
    var audioClock = MediaClock()
    var videoClock = MediaClock()
    var externalClock = MediaClock()
    var statistics = PlayerStatistics()
    /// The frame on screen: its media time, duration and timeline; and the frame itself
    /// (as shown, turned upright), for screenshots.
    var shown: (pts: Double, duration: Double, serial: Int)?
    var shownFrame: VideoFrame?
    /// Whether subtitles show, their delay and size (`v`, `z`/`x`).
    var subtitleSettings = SubtitleSettings()
    /// Frames still to show one by one while paused (`.` in the window).
    var stepsRequested = 0
    /// A step moved the picture on while the audio stood still: playing again starts with
    /// an exact seek to the picture, which brings the audio back to it.
    var steppedWhilePaused = false
    /// Where playback goes back to when it reaches point B (seconds from the input's start).
    var abLoop = ABLoop()
    /// A line for the on-screen display and when it goes (monotonic seconds).
    var message: (text: String, until: Double)?
    /// The audio stream played now; a switch changes it with the seek that starts the
    /// new timeline.
    var audioStreamIndex: Int?
    /// The timecodes read from the pictures shown, when latency is measured.
    var latencyMeter: LatencyMeter?

    init() {
        // A playback opens paused: its clocks start held, or the opening frame's time
        // would run on with the wall clock before anything plays.
        holdClocks(true, at: 0)
    }

    /// Looks, under the lock; `body` changes nothing (a change goes through ``update(_:)``,
    /// which wakes the threads waiting for one).
    func read<Result>(_ body: (PlaybackControl) -> Result) -> Result { lock.withLock { body(self) } }

    /// Changes what no thread waits for (counters, the statistics), under the lock, without
    /// waking anyone: the live thread notes its latency 20 times a second.
    @discardableResult
    func record<Result>(_ body: (PlaybackControl) -> Result) -> Result { lock.withLock { body(self) } }

    /// Changes, under the lock, and wakes every thread waiting on it.
    @discardableResult
    func update<Result>(_ body: (PlaybackControl) -> Result) -> Result {
        lock.withLock {
            defer { lock.broadcast() }
            return body(self)
        }
    }

    /// Whether a frame of `serial` at `time` is still before an exact seek's target.
    func isBeforeTarget(serial: Int, time: Double, duration: Double) -> Bool {
        read { control in
            guard let target = control.exactTarget, target.serial == serial else { return false }
            // A frame is on screen until its end: the one covering the target is shown (one
            // that ends at the target, give or take a rounding, is before it).
            return time + max(duration, 0.0005) <= target.time + 1e-6
        }
    }

    /// The media time of `master` now, or `nil` while it is unknown.
    func masterTime(_ master: ClockMaster, at now: Double) -> Double? {
        read { $0.masterTimeUnlocked(master, at: now) }
    }

    /// Where playback is: the master clock, or while it has not run yet (paused after
    /// opening or seeking) the frame on screen, or the seek target.
    func position(_ master: ClockMaster, at now: Double) -> Double? {
        read { control in
            control.masterTimeUnlocked(master, at: now)
                ?? control.videoClock.time(at: now, currentSerial: control.serial)
                ?? control.seekTarget
                ?? control.exactTarget?.time
        }
    }

    /// Stops or restarts every clock without a jump in what it reads.
    func setPaused(_ paused: Bool, at now: Double) {
        update { control in
            control.holdClocks(paused || control.buffering || control.endReported, at: now)
            control.paused = paused
        }
    }

    func setBuffering(_ buffering: Bool, at now: Double) {
        update { control in
            control.holdClocks(buffering || control.paused || control.endReported, at: now)
            control.buffering = buffering
        }
    }

    /// Call with the lock held. The clocks stand still while paused, while buffering, and
    /// once the end was announced (the position stays at the end, as mpv's does, however
    /// late it is read), until a seek starts a new timeline.
    func holdClocks(_ held: Bool, at now: Double) {
        for keyPath in [\PlaybackControl.audioClock, \PlaybackControl.videoClock, \PlaybackControl.externalClock] {
            var clock = self[keyPath: keyPath]
            if let time = clock.time(at: now, currentSerial: clock.serial) { clock.set(time, serial: clock.serial, at: now) }
            clock.isPaused = held
            self[keyPath: keyPath] = clock
        }
    }

    /// The caller's rate.
    func setRate(_ rate: Double, at now: Double) {
        update { control in
            control.userRate = rate
            control.applyRate(at: now)
        }
    }

    /// A live input's catch-up factor (1 on target).
    func setCatchUpFactor(_ factor: Double, at now: Double) {
        update { control in
            control.catchUpFactor = factor
            control.applyRate(at: now)
        }
    }

    /// Call with the lock held.
    private func applyRate(at now: Double) {
        rate = userRate * catchUpFactor
        audioClock.setSpeed(rate, at: now)
        videoClock.setSpeed(rate, at: now)
        externalClock.setSpeed(rate, at: now)
    }
}
