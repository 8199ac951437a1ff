import Foundation
import ReelCore

/// The time every timing decision of a playback asks: when to show a frame, when a device
/// pull is heard, when a live stream falls behind, how long a reconnect waits.
///
/// Production plays on ``MonotonicPlaybackClock``. Tests inject ``ManualPlaybackClock``
/// and move time on themselves, as GStreamer's `GstTestClock` and SwiftNIO's
/// `EmbeddedEventLoop` do: a decision is then checked at exact times, without waiting.
protocol PlaybackClock: AnyObject, Sendable {
    /// Seconds on this clock (monotonic: never goes back).
    var now: Double { get }
    /// Returns once ``now`` has reached `deadline`.
    func sleep(until deadline: Double)
    /// Waits on `lock`, which the caller holds, until it is broadcast or ``now`` reaches
    /// `deadline`; the caller checks what it waits for again, as with any condition.
    func wait(on lock: ConditionLock, until deadline: Double)
}

extension PlaybackClock {
    /// Sleeps `seconds` from now.
    func sleep(for seconds: Double) { sleep(until: now + seconds) }
}

/// The machine's monotonic clock.
final class MonotonicPlaybackClock: PlaybackClock {
    static let shared = MonotonicPlaybackClock()

    var now: Double { monotonicSeconds() }

    func sleep(until deadline: Double) {
        let left = deadline - monotonicSeconds()
        if left > 0 { Thread.sleep(forTimeInterval: left) }
    }

    func wait(on lock: ConditionLock, until deadline: Double) {
        lock.wait(seconds: deadline - monotonicSeconds())
    }
}
