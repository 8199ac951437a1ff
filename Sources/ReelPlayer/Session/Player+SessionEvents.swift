import Foundation
import ReelCore

// What a session reports, routed by the player: state moves, and the ends and errors that
// become a reconnect, a fallback, the playlist's next item, or the player's own end.
extension Player {
    func move(to next: PlayerState) {
        if enter(next) { continuation.yield(.stateChanged(next)) }
    }

    /// Makes `next` the state, if it may follow the current one; says whether it did.
    private func enter(_ next: PlayerState) -> Bool {
        lock.withLock {
            guard currentState != next, currentState.canMove(to: next) else { return false }
            currentState = next
            return true
        }
    }

    /// Ends the player, then says so: a `play()` in answer to `endOfStream` must find the
    /// player ended (and start again from the beginning), not still playing.
    func endAndTell() {
        let ended = enter(.ended)
        continuation.yield(.endOfStream)
        if ended { continuation.yield(.stateChanged(.ended)) }
    }

    func handle(_ event: PlayerEvent, generation expected: Int) {
        let (current, playsList) = lock.withLock { (generation == expected, queue != nil) }
        guard current else { return }
        switch event {
        case .endOfStream where reconnects(generation: expected):
            reconnect(after: "the live input ended", generation: expected)
        case .error(let error) where reconnects(generation: expected):
            reconnect(after: error.description, generation: expected, fromTheNewestSegment: error.isTimestampJump)
        case .error(let error) where fallsBackMidStream(error, generation: expected):
            fallBack(after: error, generation: expected)
        case .endOfStream where playsList:
            queuedItemEnded(generation: expected)
        case .error(let error) where playsList:
            queuedItemFailed(error, generation: expected)
        case .endOfStream:
            endAndTell()
        case .firstFrame(let latency):
            continuation.yield(event)
            let now = clock.now
            // Under the lock: after the reconnect's own announcement, whichever thread is last.
            lock.withLock {
                if let picture = reconnects.firstPictureShown(generation: expected, afterAttempt: latency, at: now) { announce(picture) }
            }
        default:
            continuation.yield(event)
        }
    }

    func sessionFailed(generation expected: Int) {
        if lock.withLock({ generation == expected && queue == nil }) { move(to: .failed) }
    }
}
