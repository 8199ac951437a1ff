import Foundation
@testable import ReelPlayer
import ReelCore

/// A video output that remembers what it was given and when, on the test's clock.
final class RecordingOutput: VideoOutput, @unchecked Sendable {
    private let clock: ManualPlaybackClock
    /// Each frame presented: its media time, the clock time it was shown at, and what
    /// ``audioTime`` read then.
    var shown: [(pts: Double, at: Double, audio: Double?)] { lock.withLock { presented } }
    private var presented: [(pts: Double, at: Double, audio: Double?)] = []
    private let lock = NSLock()
    /// The audio clock's media time now, if it runs.
    var audioTime: () -> Double? = { nil }
    /// What the user asks for at the next idle call.
    var commands: [UserCommand] = []
    private(set) var lastStatus: PlaybackStatus?
    private(set) var closed = false

    init(clock: ManualPlaybackClock) { self.clock = clock }

    /// How long each present takes, on the test's clock (a slow window).
    var presentDuration = 0.0

    /// The frames presented themselves (gifts drawn over them, for one).
    var frames: [VideoFrame] { lock.withLock { presentedFrames } }
    private var presentedFrames: [VideoFrame] = []

    func present(_ frame: VideoFrame) {
        let entry = (frame.presentationTime?.seconds ?? .nan, clock.now, audioTime())
        lock.withLock {
            presented.append(entry)
            presentedFrames.append(frame)
        }
        if presentDuration > 0 { clock.advance(by: presentDuration) }
    }

    func idle(status: PlaybackStatus) -> [UserCommand] {
        lastStatus = status
        idleCalls += 1
        defer { commands = [] }
        return commands
    }

    /// False: an output with nothing to do between pictures (a wall's tile).
    var wantsIdle = true
    /// How many times the display loop gave the output its idle moment.
    private(set) var idleCalls = 0

    func close() { closed = true }
}

/// A sound card that the test pulls (``pull(heardAt:)``) instead of a device thread.
final class PulledAudioOutput: AudioOutput, @unchecked Sendable {
    let format = AudioDeviceFormat(sampleRate: 48_000, channels: 2)
    /// Samples per pull: 10 ms.
    let period = 480
    private var render: (@Sendable (UnsafeMutableRawBufferPointer, Double) -> Void)?
    private(set) var paused = false
    /// The first channel of every sample pulled.
    private(set) var samples: [Float] = []
    /// When each pull's samples are heard: sample `i` at `pullTimes[i / period]` and
    /// `i % period` samples on.
    private(set) var pullTimes: [Double] = []

    func start(render: @escaping @Sendable (UnsafeMutableRawBufferPointer, Double) -> Void) throws { self.render = render }
    func setPaused(_ paused: Bool) { self.paused = paused }
    func close() { render = nil }

    /// One period pulled, to be heard at `heardAt`.
    func pull(heardAt: Double) {
        guard let render, !paused else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: period * format.bytesPerFrame, alignment: 16)
        defer { buffer.deallocate() }
        render(buffer, heardAt)
        pullTimes.append(heardAt)
        let floats = buffer.bindMemory(to: Float.self)
        for frame in 0..<period { samples.append(floats[frame * format.channels]) }
    }

    /// When each sound louder than `threshold` begins, as heard.
    func onsets(above threshold: Float = 0.5) -> [Double] {
        samples.indices.filter { index in samples[index] > threshold && (index == 0 || samples[index - 1] <= threshold) }
            .map { pullTimes[$0 / period] + Double($0 % period) / Double(format.sampleRate) }
    }
}

/// The events a session sent, in order.
final class EventRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [PlayerEvent] = []
    private var buffering: [Bool] = []

    func add(_ event: PlayerEvent) { lock.withLock { events.append(event) } }
    func addBuffering(_ value: Bool) { lock.withLock { buffering.append(value) } }
    var all: [PlayerEvent] { lock.withLock { events } }
    var bufferingChanges: [Bool] { lock.withLock { buffering } }

    func count(_ matches: (PlayerEvent) -> Bool) -> Int { all.filter(matches).count }
}
