import Foundation
@testable import ReelPlayer
import ReelCore

/// One session on a manual clock, driven as its threads would drive it but in one place
/// and in time order: the scripted engine hands over what has arrived, the display loop
/// steps, and the sound card pulls every 10 ms, each when the clock reaches its time.
/// Nothing waits for real time; every outcome is exact.
final class SessionHarness {
    let clock: ManualPlaybackClock
    let engine: ScriptedEngine
    let video: RecordingOutput
    let audio: PulledAudioOutput?
    let events = EventRecorder()
    let session: PlaybackSession
    private var loop: DisplayLoop
    private var live: LiveLatencyKeeper
    private var nextLiveLook: Double
    /// When the sound card pulls next.
    private var nextPull: Double
    /// The sound card's clock runs this much fast (0.001 = 0.1 %) against the player's.
    var deviceDrift = 0.0
    /// Pulls from this clock time on play silence of their own (a device underrun).
    var deviceStall: ClosedRange<Double>?

    init(configuration: Player.Configuration = Player.Configuration(), fps: Double = 25, gop: Int = 25, duration: Double = 4,
         audio hasAudio: Bool = true, live: Bool = false, tap: FrameTap? = nil, overlays: PlayerOverlays? = nil,
         configureEngine: (ScriptedEngine) -> Void = { _ in }) throws {
        clock = ManualPlaybackClock(at: 100)
        engine = ScriptedEngine(clock: clock, fps: fps, gop: gop, duration: duration, audio: hasAudio)
        configureEngine(engine)
        video = RecordingOutput(clock: clock)
        audio = hasAudio ? PulledAudioOutput() : nil
        var configuration = configuration
        if live { configuration.live = .on }
        let events = events
        let callbacks = PlaybackSession.Callbacks(emit: { events.add($0) }, onBuffering: { events.addBuffering($0) })
        let outputs = PlaybackSession.Outputs(video: video, audio: audio, tap: tap, displayThread: Self.displayThread, overlays: overlays)
        session = try PlaybackSession(url: live ? "rtsp://camera/stream" : "clip.mp4", engine: engine, configuration: configuration,
                                      outputs: outputs, callbacks: callbacks, clock: clock)
        engine.start(into: session, serial: 0) { _, _ in }
        if let audio, let renderer = session.audioRenderer {
            try audio.start { buffer, heardAt in renderer.render(into: buffer, heardAt: heardAt) }
        }
        loop = DisplayLoop(session: session)
        let (control, clock) = (session.control, clock)
        video.audioTime = { control.read { $0.audioClock.time(at: clock.now, currentSerial: $0.serial) } }
        self.live = LiveLatencyKeeper(policy: configuration.liveLatency)
        nextPull = clock.now
        nextLiveLook = clock.now
    }

    /// Unused by the harness (it steps the loop itself), but a session needs one.
    private static let displayThread = DisplayThread(name: "reel.tests.display")

    var control: PlaybackControl { session.control }
    var now: Double { clock.now }

    func play() {
        session.control.setPaused(false, at: clock.now)
        audio?.setPaused(false)
    }

    func pause() {
        session.control.setPaused(true, at: clock.now)
        audio?.setPaused(true)
    }

    /// Runs everything due up to `seconds` from now, in time order.
    func run(for seconds: Double) {
        let end = clock.now + seconds
        var steps = 0
        while clock.now < end {
            steps += 1
            precondition(steps < 1_000_000, "the display loop does not move on")
            deviceAndLiveThread()
            engine.pump()
            let wait = loop.step(video, at: clock.now)
            let wake: Double
            switch wait {
            case .none: continue
            case .until(let time): wake = time
            case .frame(let time): wake = time
            }
            var next = min(wake, end)
            if audio != nil { next = min(next, nextPull) }
            if session.isLive { next = min(next, nextLiveLook) }
            clock.advance(to: max(next, clock.now))
        }
    }

    /// What the sound card and the live thread do by now, each at its own times.
    private func deviceAndLiveThread() {
        while let audio, clock.now >= nextPull {
            if !(deviceStall?.contains(nextPull) ?? false) { audio.pull(heardAt: nextPull) }
            nextPull += Double(audio.period) / Double(audio.format.sampleRate) / (1 + deviceDrift)
        }
        while session.isLive, clock.now >= nextLiveLook {
            session.keepLiveLatency(&live, at: nextLiveLook)
            nextLiveLook += LiveLatencyKeeper.interval
        }
    }

    /// The media times shown, in order.
    var shownTimes: [Double] { video.shown.map(\.pts) }
}
