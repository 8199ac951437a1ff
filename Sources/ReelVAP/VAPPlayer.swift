import Foundation
import ReelCore
import ReelFFmpeg

/// Plays a VAP animation into a `VideoOutput` (a window, a headless sink), with its
/// audio in sync on an `AudioOutput`: frames are decoded, composited and fused on the
/// player's own thread, one ahead, and shown when due — by the audio device's clock when
/// there is audio, by VAP's catch-up timing (`VAPFrameTiming`) when there is not.
///
/// Outputs get opaque RGBA pictures: the animation over a checkerboard, or over black.
public final class VAPPlayer: @unchecked Sendable {
    /// How a ``VAPPlayer`` plays: rate, loops, layout, fusion content and background.
    public struct Configuration: Sendable {
        /// Frames per second, used when 1–60; else the `vapc` rate, else the samples' rate, else 20.
        public var framesPerSecond: Int?
        /// Times to play; 0 loops until stopped.
        public var loops = 1
        /// Leave the last frame on screen at the end (else show the background alone).
        public var keepsLastFrame = true
        /// Play the animation's audio track on the audio output, when it has one.
        public var playsAudio = true
        /// Where the colour and alpha pictures are in each frame; `nil` reads the file's
        /// `vapc`, else detects the layout from the first frame.
        public var layout: VAPLayout?
        /// The text and images fused into the animation's slots.
        public var content = VAPFusionContent()
        /// Show transparency as a checkerboard (else over black).
        public var checkerboard = true

        /// A configuration; every value has the default of `reel vap play`.
        public init(framesPerSecond: Int? = nil, loops: Int = 1, keepsLastFrame: Bool = true, playsAudio: Bool = true,
                    layout: VAPLayout? = nil, content: VAPFusionContent = VAPFusionContent(), checkerboard: Bool = true) {
            self.framesPerSecond = framesPerSecond
            self.loops = loops
            self.keepsLastFrame = keepsLastFrame
            self.playsAudio = playsAudio
            self.layout = layout
            self.content = content
            self.checkerboard = checkerboard
        }
    }

    /// What happens, in order: the configuration read, start, pauses, each frame shown,
    /// the end or a failure. The stream finishes when playback ends.
    public let events: AsyncStream<VAPEvent>
    /// Every frame shown (opaque RGBA, as on screen), for consumers besides the output.
    public let frameTap: FrameTap
    /// How the player was made to play.
    public let configuration: Configuration
    /// The rate frames are shown at: the configuration's, else the file's.
    public let framesPerSecond: Double
    /// Frames in one loop of the animation.
    public let frameCount: Int
    private let continuation: AsyncStream<VAPEvent>.Continuation
    private let renderer: VAPRenderer
    private let makeVideo: @Sendable () -> (any VideoOutput)?
    private let audioOutput: (any AudioOutput)?
    private let audioClock: VAPAudioClock?
    private let control = ConditionLock()
    private var commands: [Command] = []
    private var started = false
    /// The player's thread is done.
    private let finished = CompletionSignal()

    private enum Command { case pause, resume, togglePause, seek(frame: Int), stop }

    /// Opens `path` and reports ``VAPEvent/configReady(config:layout:frameCount:framesPerSecond:)``.
    /// - Parameters:
    ///   - path: the VAP file.
    ///   - configuration: frame rate, loops, layout, fusion content and background.
    ///   - video: makes the video output on the player's thread (windows belong to the thread that made them).
    ///   - audio: the device for the animation's audio; `nil` plays without sound.
    ///   - frameTap: where the frames shown go for other consumers; a new one by default.
    public init(path: String, configuration: Configuration = Configuration(), video: @escaping @Sendable () -> (any VideoOutput)?, audio: (any AudioOutput)?,
                frameTap: FrameTap = .withLibswscaleFallback()) throws {
        // Bounded, as the file player's: an endless loop nobody listens to must not pile up
        // its frame events.
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1024))
        self.frameTap = frameTap
        self.configuration = configuration
        renderer = try VAPRenderer(path: path, layout: configuration.layout, content: configuration.content)
        let file = renderer.decoder.file
        let nativeRate = VAPFrameRate.choose(requested: nil, config: file.config?.info.framesPerSecond, samples: file.sampleFrameRate)
        framesPerSecond = VAPFrameRate.choose(requested: configuration.framesPerSecond, config: file.config?.info.framesPerSecond, samples: file.sampleFrameRate)
        frameCount = renderer.decoder.frameCount
        makeVideo = video
        if configuration.playsAudio, let audio, file.audio != nil,
           let track = try VAPAudioTrack(path: path, format: audio.format, tempo: framesPerSecond / nativeRate) {
            audioClock = VAPAudioClock(track: track)
            audioOutput = audio
        } else {
            audioClock = nil
            audioOutput = nil
        }
        continuation.yield(.configReady(config: file.config, layout: renderer.layout, frameCount: frameCount, framesPerSecond: framesPerSecond))
    }

    /// Starts playing on the player's thread, or resumes after ``pause()``.
    public func play() {
        let first = control.withLock { () -> Bool in
            defer { started = true }
            return !started
        }
        guard first else { return send(.resume) }
        let thread = Thread { [self] in
            do {
                try run()
            } catch {
                continuation.yield(.failed(VAPPlayerError(error)))
            }
            audioOutput?.close()
            frameTap.finishAll()
            continuation.finish()
            finished.signal()
        }
        thread.name = "reel.vap"
        thread.start()
    }

    /// Holds the current frame (and the audio) until ``play()``.
    public func pause() { send(.pause) }
    /// Shows frame `index` next (clamped to the animation).
    public func seek(toFrame index: Int) { send(.seek(frame: index)) }
    /// Ends playback; ``events`` reports ``VAPEvent/completed(framesShown:framesDropped:loops:)``
    /// and finishes.
    public func stop() { send(.stop) }

    /// Waits until playback has ended (the last loop, ``stop()``, the window closed or a
    /// failure) and the outputs are closed; at once if it was never started. Returns early,
    /// with the player still playing, when the waiting task is cancelled.
    public func waitUntilFinished() async {
        guard control.withLock({ started }) else { return }
        await finished.waitCancellably()
    }

    private func send(_ command: Command) {
        control.withLock {
            commands.append(command)
            control.broadcast()
        }
    }

    private func takeCommands() -> [Command] {
        control.withLock {
            defer { commands.removeAll() }
            return commands
        }
    }

    /// The player thread.
    private func run() throws {
        let video = makeVideo()
        defer { video?.close() }
        if let audioOutput, let audioClock {
            try audioOutput.start { buffer, heardAt in audioClock.render(into: buffer, heardAt: heardAt) }
        }
        continuation.yield(.started)
        var timing = VAPFrameTiming(framesPerSecond: framesPerSecond)
        var loop = 0, shown = 0, dropped = 0, paused = false, stopped = false, lateSkip = false
        var nextDue = monotonicSeconds()
        var upcoming = try renderer.nextFrame()
        audioClock?.start(at: 0)
        let interval = 1 / framesPerSecond
        var lastPicture: PixelBuffer?
        playing: while !stopped {
            guard let (index, picture) = upcoming else {
                loop += 1
                if configuration.loops > 0 && loop >= configuration.loops { break }
                try renderer.seek(toFrame: 0)
                upcoming = try renderer.nextFrame()
                audioClock?.start(at: 0)
                timing.restart()
                continue
            }
            // Wait until the frame is due, minding commands and the window.
            while true {
                for command in takeCommands() {
                    switch command {
                    case .stop: stopped = true
                    case .pause where !paused, .togglePause where !paused:
                        paused = true
                        audioClock?.stop()
                        audioOutput?.setPaused(true)
                        continuation.yield(.paused)
                    case .resume where paused, .togglePause where paused:
                        paused = false
                        timing.restart()
                        nextDue = monotonicSeconds()
                        audioClock?.start(at: Double(index) * interval)
                        audioOutput?.setPaused(false)
                        continuation.yield(.resumed)
                    case .seek(let frame):
                        try renderer.seek(toFrame: min(max(frame, 0), frameCount - 1))
                        frameTap.markDiscontinuity()
                        upcoming = try renderer.nextFrame()
                        timing.restart()
                        nextDue = monotonicSeconds()
                        if !paused { audioClock?.start(at: Double(upcoming?.index ?? 0) * interval) }
                        continue playing
                    default: break
                    }
                }
                if stopped { break playing }
                let now = monotonicSeconds()
                let status = PlaybackStatus(position: Double(index) * interval, duration: Double(frameCount) * interval,
                                            state: paused ? .paused : .playing, volume: 1, muted: false, rate: 1)
                for command in video?.idle(status: status) ?? [] {
                    switch command {
                    case .quit: stopped = true
                    case .togglePause: send(.togglePause)
                    case .seekBy(let seconds): send(.seek(frame: index + Int((seconds * framesPerSecond).rounded())))
                    case .seekTo(let fraction): send(.seek(frame: Int(fraction * Double(frameCount))))
                    default: break
                    }
                }
                if stopped { break playing }
                if paused {
                    control.withLock { if commands.isEmpty { control.wait(seconds: 0.01) } }
                    continue
                }
                let wait: Double
                if let audioClock, let heard = audioClock.time(at: now) {
                    wait = Double(index) * interval - heard
                } else {
                    wait = nextDue - now
                }
                if wait <= 0 {
                    // More than a frame behind the audio: drop this one (the audio is the
                    // master clock; the decoder keeps every frame for the next).
                    if audioClock != nil && wait < -interval { lateSkip = true }
                    break
                }
                control.withLock { if commands.isEmpty { control.wait(seconds: min(wait, 0.01)) } }
            }
            if lateSkip {
                lateSkip = false
                dropped += 1
                upcoming = try renderer.nextFrame()
                continue
            }
            let now = monotonicSeconds()
            let shownFrame = try displayed(picture, index: index)
            video?.present(shownFrame)
            if !(video?.feedsFrameTap ?? false) { frameTap.deliver(shownFrame) }
            lastPicture = picture
            shown += 1
            let audioOffset = audioClock?.time(at: now).map { $0 - Double(index) * interval }
            continuation.yield(.frameRendered(index: index, loop: loop, audioOffset: audioOffset))
            nextDue = now + timing.duration(ofFrameShownAt: now)
            upcoming = try renderer.nextFrame()
        }
        audioClock?.stop()
        if !configuration.keepsLastFrame, let lastPicture {
            let empty = try PixelBuffer(format: .rgba, width: lastPicture.width, height: lastPicture.height)
            video?.present(try displayed(empty, index: frameCount))
        }
        continuation.yield(.completed(framesShown: shown, framesDropped: dropped, loops: loop))
    }

    /// The picture as outputs take it: opaque, over the background, timed by its index
    /// (milliseconds).
    private func displayed(_ picture: PixelBuffer, index: Int) throws -> VideoFrame {
        let output = try PixelBuffer(format: .rgba, width: picture.width, height: picture.height)
        if configuration.checkerboard {
            Checkerboard.composite(picture, into: output)
        } else {
            // Premultiplied over black is the colour itself.
            for row in 0..<picture.height {
                let source = picture.planes[0].row(row), out = output.planes[0].row(row)
                out.update(from: source, count: 4 * picture.width)
                for column in 0..<picture.width { out[4 * column + 3] = 255 }
            }
        }
        return output.videoFrame(pts: Int64((Double(index) / framesPerSecond * 1000).rounded()),
                                 duration: Int64((1000 / framesPerSecond).rounded()), timeBase: Rational(1, 1000))
    }
}
