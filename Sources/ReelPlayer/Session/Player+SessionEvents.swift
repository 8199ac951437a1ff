import Foundation
import ReelCore

// What a session reports, routed by the player: state moves, and the ends and errors that
// become a reconnect, a fallback, the playlist's next item, or the player's own end.
extension Player {
    func move(to next: PlayerState) {
        let moved = lock.withLock { () -> Bool in
            guard currentState != next, currentState.canMove(to: next) else { return false }
            currentState = next
            return true
        }
        if moved { continuation.yield(.stateChanged(next)) }
    }

    func handle(_ event: PlayerEvent, generation expected: Int) {
        let (current, playsList) = lock.withLock { (generation == expected, queue != nil) }
        guard current else { return }
        switch event {
        case .endOfStream where reconnects(generation: expected):
            reconnect(after: "the live input ended", generation: expected)
        case .error(let error) where reconnects(generation: expected):
            reconnect(after: error.description, generation: expected)
        case .error(let error) where fallsBackMidStream(error, generation: expected):
            fallBack(after: error, generation: expected)
        case .endOfStream where playsList:
            queuedItemEnded(generation: expected)
        case .error(let error) where playsList:
            queuedItemFailed(error, generation: expected)
        case .endOfStream:
            continuation.yield(event)
            move(to: .ended)
        default:
            continuation.yield(event)
        }
    }

    func sessionFailed(generation expected: Int) {
        if lock.withLock({ generation == expected && queue == nil }) { move(to: .failed) }
    }
}
