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
    /// After a timestamp jump (`fromTheNewestSegment`) a live HLS input is opened again at
    /// its newest segment: a server whose publisher restarted (nginx-rtmp) lists the old
    /// stream's segments before the new one's for a playlist's length, and FFmpeg's start
    /// three segments back would meet the same jump again at each attempt.
    ///
    /// Called on a thread of the session lost: the session is claimed at once (its other
    /// threads' events are stale from here on) and replaced on the item queue.
    func reconnect(after reason: String, generation lost: Int, fromTheNewestSegment: Bool = false) {
        let lostAt = clock.now
        guard let url = lock.withLock({ queue?.current ?? self.url }), let claim = claimSession(ifStill: lost) else { return }
        // Before any session of the claim's generation exists, so none shows a picture unseen.
        lock.withLock { reconnects.lost(at: lostAt, generation: claim.generation) }
        itemQueue.async { [self] in
            var schedule = ReconnectSchedule(limit: configuration.reconnectFor)
            do {
                let session = try replaceSession(claim) { replacement in
                    move(to: .reconnecting)
                    var lastFailure = reason
                    while let wait = schedule.nextWait(elapsed: clock.now - lostAt) {
                        continuation.yield(.reconnecting(attempt: schedule.attempts, reason: lastFailure))
                        guard replacement.wait(until: clock.now + wait) else { throw CancellationError() }
                        do {
                            return try replacement.open(url, fromTheNewestSegment: fromTheNewestSegment)
                        } catch {
                            guard replacement.isCurrent else { throw CancellationError() }
                            lastFailure = "\(PlayerError(error))"
                            if let input = error as? InputError, !input.isWorthRetrying { break }
                        }
                    }
                    throw ReconnectError(attempts: schedule.attempts, seconds: clock.now - lostAt, lastFailure: lastFailure)
                }
                guard session != nil else { return }
                let seconds = clock.now - lostAt
                lock.withLock {
                    continuation.yield(.reconnected(attempts: schedule.attempts, seconds: seconds))
                    if let picture = reconnects.playsAgain(generation: claim.generation) { announce(picture) }
                }
                move(to: .ready)
                if lock.withLock({ wantsToPlay }) { play() }
            } catch let error as ReconnectError {
                guard lock.withLock({ generation == claim.generation }) else { return }
                move(to: .failed)
                continuation.yield(.error(PlayerError(error)))
            } catch {
                // Stopped or replaced while reconnecting.
            }
        }
    }
}

extension Player {
    /// Says when a reconnected input's first picture came; with the lock held, so that it
    /// follows `.reconnected` whichever of the two was noted last.
    func announce(_ picture: ReconnectTally.FirstPicture) {
        continuation.yield(.firstPictureAfterReconnect(seconds: picture.afterAttempt, outage: picture.afterLoss))
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

extension PlayerError {
    /// Whether the input's timestamps jumped (its sender restarted).
    var isTimestampJump: Bool {
        if case .timestampsJumped? = (underlying as? InputError)?.reason { true } else { false }
    }
}

extension InputError {
    /// Whether opening again may succeed: not when the server refused the credentials,
    /// its certificate is not trusted or the protocol is not built in (a retry storm would
    /// change nothing).
    var isWorthRetrying: Bool {
        switch reason {
        case .permissionDenied, .unsupportedProtocol, .unsupportedFormat, .untrustedCertificate, .httpStatus(401), .httpStatus(403): false
        default: true
        }
    }
}
