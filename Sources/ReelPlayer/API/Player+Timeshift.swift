import Foundation
import ReelCore

// Going back in a live input (`Configuration.timeshift`): the window that can be gone
// back to, seeks inside it, and going live again.
extension Player {
    /// The part of a live input that can be gone back to (``Configuration/timeshift``), as
    /// ``currentTime`` counts times: from the oldest moment kept to the newest media. Nil
    /// without a timeshift.
    public var timeshiftWindow: ClosedRange<Double>? {
        guard let session = lock.withLock({ session }) else { return nil }
        return session.timeshiftWindow
    }

    /// Plays a live input at its target latency again (the window's `End` key): inside a
    /// timeshift, an exact seek to the newest media less ``Configuration/liveLatency``'s
    /// target; live catch-up is back on in any case, and a paused player plays.
    public func goLive() {
        guard let session = lock.withLock({ session }), session.isLive else { return }
        session.goToLiveEdge()
        if state != .playing { play() }
    }
}

extension PlaybackSession {
    /// The streams played, by their index in the input.
    var playedStreams: [Int] { [videoStream, audioStream].compactMap { $0 } }

    /// ``Player/timeshiftWindow`` of this session.
    var timeshiftWindow: ClosedRange<Double>? {
        engine.timeshift?.range.map { ($0.lowerBound - startTime)...($0.upperBound - startTime) }
    }

    /// Paused for longer than the timeshift keeps: playing on starts from the oldest moment kept.
    func keepInsideTimeshift(at now: Double) {
        guard let window = engine.timeshift?.range, let position = control.position(master, at: now), position < window.lowerBound else { return }
        requestSeek(to: window.lowerBound, mode: .keyframe)
    }

    /// The timeshift's figures: the seconds it keeps and its bytes on disk.
    func writeTimeshift(into statistics: inout PlayerStatistics) {
        guard let timeshift = engine.timeshift else { return }
        statistics.timeshiftSeconds = timeshift.range.map { $0.upperBound - $0.lowerBound } ?? 0
        statistics.timeshiftBytes = timeshift.bytesOnDisk
    }

    /// Inside a timeshift, the viewer is behind on purpose from now on (a pause): live
    /// catch-up waits, at the normal rate.
    func holdBehindLive() {
        guard engine.timeshift != nil else { return }
        control.update { $0.behindLiveOnPurpose = true }
        control.setCatchUpFactor(1, at: clock.now)
    }

    /// A seek inside the timeshift `window` to media time `target`: going back on purpose,
    /// or, at or past the newest media less the target latency, going live again (nothing
    /// to do when live already).
    func seek(inTimeshift window: ClosedRange<Double>, to target: Double, mode: SeekMode) {
        guard target < window.upperBound - configuration.liveLatency.target else {
            if control.read({ $0.behindLiveOnPurpose }) { goToLiveEdge() }
            return
        }
        holdBehindLive()
        requestSeek(to: max(target, window.lowerBound), mode: mode)
    }

    /// Live catch-up on again and, inside a timeshift, an exact seek to the newest media
    /// kept less the target latency.
    func goToLiveEdge() {
        control.update { $0.behindLiveOnPurpose = false }
        if let edge = engine.timeshift?.liveEdge(of: playedStreams) {
            requestSeek(to: edge - configuration.liveLatency.target, mode: .exact)
        }
    }
}
