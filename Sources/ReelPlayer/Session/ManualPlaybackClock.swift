import ReelCore

/// A clock that stands still until a test moves it (``advance(by:)``), as GStreamer's
/// `GstTestClock`: a thread that sleeps or waits on it wakes when the test moves time past
/// its deadline, never before, and the test can wait until a given number of threads are
/// asleep on it (``waitForSleepers(_:timeout:)``) before it moves time.
final class ManualPlaybackClock: PlaybackClock, @unchecked Sendable {
    private let lock = ConditionLock()
    private var time: Double
    /// The threads waiting now: their deadline and the lock they wait on.
    private var sleepers: [(id: Int, deadline: Double, lock: ConditionLock)] = []
    private var nextID = 0

    init(at start: Double = 1000) { time = start }

    var now: Double { lock.withLock { time } }

    /// Moves time on by `seconds` and wakes every thread whose deadline it reached.
    func advance(by seconds: Double) { advance(to: now + seconds) }

    /// Moves time on to `target` (never back).
    func advance(to target: Double) {
        let woken = lock.withLock { () -> [ConditionLock] in
            time = max(time, target)
            lock.broadcast()
            return sleepers.filter { $0.deadline <= time }.map(\.lock)
        }
        // Taking each waiter's lock orders the broadcast after its wait began: it checked
        // the time with that lock held.
        for waiter in woken { waiter.withLock { waiter.broadcast() } }
    }

    /// The earliest deadline a thread sleeps until, if one sleeps.
    var nextDeadline: Double? { lock.withLock { sleepers.map(\.deadline).min() } }

    /// The earliest deadline after `time` a thread sleeps until (one woken and not yet
    /// gone has its deadline behind it).
    func nextDeadline(after time: Double) -> Double? {
        lock.withLock { sleepers.map(\.deadline).filter { $0 > time }.min() }
    }

    /// How many threads sleep or wait on this clock now.
    var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// Waits (in real time, at most `timeout`) until at least `count` threads sleep on
    /// this clock; false when they did not in time.
    func waitForSleepers(_ count: Int, timeout: Double = 10) -> Bool {
        let giveUp = monotonicSeconds() + timeout
        return lock.withLock {
            while sleepers.count < count {
                let left = giveUp - monotonicSeconds()
                if left <= 0 { return false }
                lock.wait(seconds: min(left, 0.05))
            }
            return true
        }
    }

    func sleep(until deadline: Double) {
        lock.withLock {
            let id = register(deadline, lock)
            while time < deadline { lock.wait() }
            unregister(id)
        }
    }

    func wait(on waiterLock: ConditionLock, until deadline: Double) {
        let id = lock.withLock { register(deadline, waiterLock) }
        if now < deadline { waiterLock.wait() }
        lock.withLock { unregister(id) }
    }

    /// Call with the clock's lock held.
    private func register(_ deadline: Double, _ waiterLock: ConditionLock) -> Int {
        nextID += 1
        sleepers.append((nextID, deadline, waiterLock))
        lock.broadcast()
        return nextID
    }

    /// Call with the clock's lock held.
    private func unregister(_ id: Int) {
        sleepers.removeAll { $0.id == id }
    }
}
