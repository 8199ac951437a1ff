/// Keeps a live video's display schedule on the pictures' arrival (pure: the display acts).
///
/// A display that shows each picture one frame interval after the last keeps the phase of
/// the first picture it showed. On a live input that phase is an accident (the first
/// picture is a keyframe, slower to send and decode than the ones after it), and every
/// picture then waits, ready, for its turn: up to a frame interval of latency that the
/// catch-up, which acts on more than that, never removes. This watches how long each
/// picture waited once ready and, when nine pictures in ten of the last second waited,
/// tells the display to move its schedule earlier by the wait those nine exceed: no
/// picture is shown sooner than it arrives, and the one in ten that came later than the
/// rest (a keyframe, bigger to send and slower to decode) shows as it arrives, late by
/// its own delay rather than delaying all the others by it. A stream whose jitter makes
/// more pictures late keeps its schedule, and its smoothness.
package struct LiveFramePhase: Sendable {
    /// Waits (seconds) of the pictures shown in the current window.
    private var waits: [Double] = []
    private var windowStart: Double?
    package static let window = 1.0
    /// Fewer pictures than this in a window say nothing about the phase.
    package static let minimumPictures = 10
    /// A shortest wait below this is left alone: the display's own timing is this coarse.
    package static let tolerance = 0.002

    package init() {}

    /// Forgets what was seen: after a pause, a seek or a jump the phase is measured anew.
    package mutating func restart() {
        waits.removeAll()
        windowStart = nil
    }

    /// Takes how long the picture shown at `now` (monotonic seconds) waited once ready (0
    /// when it was late) and returns how much earlier the schedule may move, if at all.
    package mutating func shown(waited: Double, at now: Double) -> Double? {
        let start = windowStart ?? now
        windowStart = start
        waits.append(max(waited, 0))
        guard now - start >= Self.window else { return nil }
        defer { restart() }
        guard waits.count >= Self.minimumPictures else { return nil }
        let exceeded = waits.sorted()[waits.count / 10]
        guard exceeded > Self.tolerance else { return nil }
        return exceeded - Self.tolerance / 2
    }
}
