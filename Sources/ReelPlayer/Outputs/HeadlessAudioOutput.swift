import Foundation
import ReelCore
import ReelFFmpeg

/// An audio output with no sound card: a thread that consumes samples in real time from
/// a virtual device clock (or as fast as it can when untimed), logging which sample was
/// consumed when.
public final class HeadlessAudioOutput: AudioOutput, @unchecked Sendable {
    /// The format it pulls: float at the rate and channels asked for.
    public let format: AudioDeviceFormat
    /// Samples per pull (10 ms at 48 kHz by default).
    public let period: Int
    /// Pull as fast as the player renders instead of in real time (benchmarks).
    public let untimed: Bool
    private let state = LockedValue<(running: Bool, paused: Bool)>((false, false))
    private let consumed = LockedValue<[Float]>([])
    private let keepSamples: Bool
    private let soundFile: SoundFile?
    private let stopped = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - format: the virtual device's rate and channels.
    ///   - period: samples consumed at each tick of the virtual device.
    ///   - untimed: consume as fast as samples come, not on the monotonic clock.
    ///   - keepSamples: keep every sample consumed (first channel), for tests.
    ///   - history: how many of the latest pulls ``pullLog`` keeps (10,000 is 100 s at
    ///     the default period; a player that runs for days must not grow with its log).
    ///   - soundFile: where every sample consumed is written too; it must have `format`.
    public init(format: AudioDeviceFormat = AudioDeviceFormat(sampleRate: 48000, channels: 2),
                period: Int = 480, untimed: Bool = false, keepSamples: Bool = false, history: Int = 10_000,
                soundFile: SoundFile? = nil) {
        precondition(soundFile.map { $0.format == format } ?? true, "the sound file's format is not the device's")
        self.format = format
        self.soundFile = soundFile
        self.period = period
        self.untimed = untimed
        self.keepSamples = keepSamples
        pulls = RecentLog(capacity: history)
    }

    /// The first channel of every sample consumed, in order, with the device time of the
    /// first one: sample `i` was heard at `start + i / sampleRate`, pauses excepted.
    public var consumedSamples: [Float] { consumed.copy() }
    private var firstSampleTime: Double?
    private var pulls: RecentLog<(deviceTime: Double, sampleIndex: Int)>
    /// Samples consumed since this output was made, over every start: the pull log's
    /// indices go on from one input to the next, as ``consumedSamples`` does.
    private let samplesPulled = LockedValue(0)

    public func start(render: @escaping @Sendable (UnsafeMutableRawBufferPointer, Double) -> Void) throws {
        state.withLock { $0.running = true }
        // The thread keeps this output while it runs; kept by it in turn, the pair and the
        // renderer the closure holds would never be freed (LeakSanitizer found one per player).
        let thread = Thread { [self] in
            defer { stopped.signal() }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: period * format.bytesPerFrame, alignment: 16)
            defer { buffer.deallocate() }
            var next = monotonicSeconds()
            while true {
                let (running, paused) = state.withLock { $0 }
                if !running { return }
                if paused {
                    Thread.sleep(forTimeInterval: 0.005)
                    next = monotonicSeconds()
                    continue
                }
                let now = monotonicSeconds()
                if !untimed && now < next {
                    Thread.sleep(forTimeInterval: min(next - now, 0.005))
                    continue
                }
                let heardAt = untimed ? now : next
                render(buffer, heardAt)
                samplesPulled.withLock { consumedCount in
                    if firstSampleTime == nil { firstSampleTime = heardAt }
                    pulls.append((heardAt, consumedCount))
                    consumedCount += period
                }
                soundFile?.append(UnsafeBufferPointer(buffer.bindMemory(to: Float.self)))
                if keepSamples {
                    let samples = buffer.bindMemory(to: Float.self)
                    consumed.withLock { list in
                        for frame in 0..<period { list.append(samples[frame * format.channels]) }
                    }
                }
                next += Double(period) / Double(format.sampleRate)
                // A machine too busy to keep up does not make the device play faster.
                if monotonicSeconds() - next > 0.2 { next = monotonicSeconds() }
            }
        }
        thread.name = "reel.audio.headless"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Device time of each pull and how many samples had been consumed before it: every
    /// pull, or the latest `history` of them.
    public var pullLog: [(deviceTime: Double, sampleIndex: Int)] { samplesPulled.withLock { _ in pulls.entries } }

    /// Holds or resumes pulling.
    public func setPaused(_ paused: Bool) { state.withLock { $0.paused = paused } }
    /// Stops pulling; returns once the device thread will not call `render` again.
    public func close() {
        let wasRunning = state.withLock { state -> Bool in
            defer { state.running = false }
            return state.running
        }
        if wasRunning { _ = stopped.wait(timeout: .now() + 2) }
    }
}
