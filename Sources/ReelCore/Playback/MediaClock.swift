/// A clock that runs from a media timestamp, as ffplay's `Clock`: it remembers the
/// timestamp it was last set to and when, and extrapolates at its speed.
///
/// `serial` ties a reading to a generation of the queues: after a seek, a clock whose
/// serial is old reads as unknown (`nil`).
package struct MediaClock: Sendable {
    package private(set) var pts: Double = .nan
    private var drift: Double = .nan
    package private(set) var lastUpdated: Double = 0
    package private(set) var speed: Double = 1
    package private(set) var serial: Int = -1
    package var isPaused = false

    package init() {}

    /// The media time now, or `nil` when the clock is unset or of an older serial.
    package func time(at now: Double, currentSerial: Int) -> Double? {
        guard serial == currentSerial, !pts.isNaN else { return nil }
        if isPaused { return pts }
        return drift + now - (now - lastUpdated) * (1 - speed)
    }

    package mutating func set(_ pts: Double, serial: Int, at now: Double) {
        self.pts = pts
        self.lastUpdated = now
        self.drift = pts - now
        self.serial = serial
    }

    /// Changes speed without a jump in the time it reads.
    package mutating func setSpeed(_ speed: Double, at now: Double) {
        if let current = time(at: now, currentSerial: serial) { set(current, serial: serial, at: now) }
        self.speed = speed
    }

    /// Follows another clock when it has drifted too far (ffplay's `sync_clock_to_slave`).
    package mutating func follow(_ other: MediaClock, at now: Double, threshold: Double = SyncPolicy.noSyncThreshold) {
        guard let theirs = other.time(at: now, currentSerial: other.serial) else { return }
        let mine = time(at: now, currentSerial: serial)
        if mine == nil || abs(mine! - theirs) > threshold { set(theirs, serial: other.serial, at: now) }
    }
}
