import Foundation
import ReelCore

extension Player {
    /// Whether the session of `generation` is a live input to open again when it ends or
    /// fails, rather than ending playback.
    func reconnects(generation expected: Int) -> Bool {
        guard configuration.reconnectFor > 0 else { return false }
        return lock.withLock { generation == expected && (session?.isReconnectable ?? false) }
    }

    /// The live input of `generation` ended or failed (`reason`): it is opened again in
    /// place, in the same window, with back-off (``ReconnectSchedule``), and plays on
    /// (or stays paused) on a new timeline when it returns; if it does not within
    /// `reconnectFor` seconds, or refuses the credentials, playback fails with one line.
    ///
    /// Called on a thread of the session lost: the session is taken at once (its other
    /// threads' events are stale from here on) and stopped from the item queue.
    func reconnect(after reason: String, generation lost: Int) {
        let lostAt = clock.now
        let taken = lock.withLock { () -> (url: String, old: PlaybackSession?, generation: Int)? in
            guard generation == lost, let url = queue?.current ?? url else { return nil }
            generation += 1
            defer { session = nil }
            return (url, session, generation)
        }
        guard let (url, old, expected) = taken else { return }
        itemQueue.async { [self] in
            old?.stop(closingVideoOutput: false)
            // Kept by the player (a stop closes it): the window stays while reconnecting.
            let video = lock.withLock { heldVideoOutput }
            move(to: .reconnecting)
            var schedule = ReconnectSchedule(limit: configuration.reconnectFor)
            var lastFailure = reason
            while let wait = schedule.nextWait(elapsed: clock.now - lostAt) {
                continuation.yield(.reconnecting(attempt: schedule.attempts, reason: lastFailure))
                let interrupt = InterruptController(timeout: configuration.input.timeout)
                let waited = lock.withLock { () -> Bool in
                    let until = clock.now + wait
                    while generation == expected, clock.now < until { clock.wait(on: lock, until: until) }
                    guard generation == expected else { return false }
                    openingInterrupt = interrupt
                    return true
                }
                guard waited else { return }
                do {
                    let session = try makeSession(url: url, startingAt: nil, audioTrack: nil, videoOutput: video,
                                                  interrupt: interrupt, generation: expected)
                    guard install(session, generation: expected) else {
                        session.stop(closingVideoOutput: false)
                        return
                    }
                    continuation.yield(.reconnected(attempts: schedule.attempts, seconds: clock.now - lostAt))
                    move(to: .ready)
                    if lock.withLock({ wantsToPlay }) { play() }
                    return
                } catch {
                    guard lock.withLock({ generation == expected && !interrupt.isCancelled }) else { return }
                    lastFailure = "\(PlayerError(error))"
                    if let input = error as? InputError, !input.isWorthRetrying { break }
                }
            }
            guard lock.withLock({ generation == expected }) else { return }
            let elapsed = clock.now - lostAt
            move(to: .failed)
            continuation.yield(.error(PlayerError(ReconnectError(attempts: schedule.attempts, seconds: elapsed, lastFailure: lastFailure))))
        }
    }
}

/// A live input did not come back.
public struct ReconnectError: Error, Sendable, CustomStringConvertible {
    /// Attempts made to open it again.
    public var attempts: Int
    /// Seconds from the loss to giving up.
    public var seconds: Double
    /// Why the last attempt (or the input, when none was made) failed.
    public var lastFailure: String

    public var description: String {
        let tries = attempts == 1 ? "1 attempt" : "\(attempts) attempts"
        return "the live input did not come back (\(tries) in \(Int(seconds.rounded())) s): \(lastFailure)"
    }
}

extension InputError {
    /// Whether opening again may succeed: not when the server refused the credentials
    /// or the protocol is not built in (a retry storm would change nothing).
    var isWorthRetrying: Bool {
        switch reason {
        case .permissionDenied, .unsupportedProtocol, .unsupportedFormat, .httpStatus(401), .httpStatus(403): false
        default: true
        }
    }
}
