import Dispatch
import ReelCore
import ReelFFmpeg

/// A video output with no screen: it records what was presented and when (the most recent
/// frames), and can keep a snapshot of the frame on screen at a given time.
public final class HeadlessVideoOutput: VideoOutput, @unchecked Sendable {
    /// One presented frame: its media time and the device (monotonic) time it was shown.
    public struct Presentation: Sendable {
        /// The frame's presentation time, in seconds.
        public var pts: Double
        /// When it was shown, in monotonic seconds.
        public var deviceTime: Double
        /// Mean luma of the frame's first plane, for tests that look for flashes.
        public var meanLuma: Double
    }

    private let log: LockedValue<RecentLog<Presentation>>
    private let measureLuma: Bool
    private let snapshotRequests = LockedValue<[(time: Double, path: String)]>([])
    private let snapshotErrors = LockedValue<[String]>([])
    /// Converting and encoding a PNG takes longer than a frame lasts: it must not hold up
    /// the thread that presents (a frame dropped and audio starved when it did). The
    /// frame handed over keeps its decoder buffer alive until it is written.
    private let snapshotWriter = DispatchQueue(label: "reel.headless.snapshot")

    /// - Parameters:
    ///   - measureLuma: compute each frame's mean luma (costs a pass over the picture).
    ///   - history: how many of the latest presentations ``presentations`` keeps (10,000
    ///     is some minutes; a player that runs for days must not grow with its log).
    public init(measureLuma: Bool = false, history: Int = 10_000) {
        self.measureLuma = measureLuma
        log = LockedValue(RecentLog(capacity: history))
    }

    /// Writes the frame on screen at media time `time` to a PNG file.
    public func snapshot(at time: Double, to path: String) {
        snapshotRequests.withLock { $0.append((time, path)) }
    }

    /// The frames shown, in order: every one, or the latest `history` of them.
    public var presentations: [Presentation] { log.withLock { $0.entries } }
    /// How many frames were shown in all, those ``presentations`` no longer keeps included.
    public var presentedCount: Int { log.withLock { $0.appendedCount } }
    /// Why snapshots failed; complete once the output is closed (the player stopped).
    public var errors: [String] { snapshotErrors.copy() }

    public func present(_ frame: VideoFrame) {
        let now = monotonicSeconds()
        let pts = frame.presentationTime?.seconds ?? .nan
        log.withLock { $0.append(Presentation(pts: pts, deviceTime: now, meanLuma: measureLuma ? Self.meanLuma(frame) : .nan)) }
        let due = snapshotRequests.withLock { requests -> [(time: Double, path: String)] in
            // The frame on screen at `time` is the one with pts <= time < pts + duration.
            let ready = requests.filter { $0.time < pts + frameDuration(frame) }
            requests.removeAll { $0.time < pts + frameDuration(frame) }
            return ready
        }
        for request in due {
            snapshotWriter.async { [snapshotErrors] in
                do { try PNGWriter.write(frame, to: request.path) } catch { snapshotErrors.withLock { $0.append("\(error)") } }
            }
        }
    }

    public func idle(status: PlaybackStatus) -> [UserCommand] { [] }

    /// Returns once every snapshot asked for so far is written (or has failed).
    public func close() {
        snapshotWriter.sync {}
    }

    private func frameDuration(_ frame: VideoFrame) -> Double {
        Double(frame.duration) * (frame.timeBase.doubleValue ?? 0)
    }

    static func meanLuma(_ frame: VideoFrame) -> Double {
        guard let plane = frame.planes.first, plane.rowCount > 0 else { return .nan }
        var total = 0
        let step = max(1, plane.rowCount / 64)
        var rows = 0
        for row in stride(from: 0, to: plane.rowCount, by: step) {
            for byte in plane.row(row) { total += Int(byte) }
            rows += 1
        }
        return Double(total) / Double(rows * plane.rowByteCount)
    }
}
