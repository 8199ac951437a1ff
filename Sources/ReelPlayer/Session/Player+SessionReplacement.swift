import Foundation
import ReelCore
import ReelFFmpeg

extension Player {
    /// The session playing, taken away to be replaced (``claimSession(ifStill:)``): from
    /// the moment it is claimed, its events are stale.
    struct SessionClaim: @unchecked Sendable {
        /// The player's generation from here on: the next session's events carry it.
        let generation: Int
        /// The session taken away, to be stopped before the next one opens.
        let old: PlaybackSession?
        /// The video output kept from the input before, which the next one shows on.
        let videoOutput: VideoOutput?
    }

    /// What `load` is given to make the session that replaces the one playing.
    struct Replacement: @unchecked Sendable {
        let player: Player
        let claim: SessionClaim

        /// Opens and starts `url` (blocking) on the kept video output, with an open the
        /// player's ``Player/stop()`` interrupts; `engine` forces an engine;
        /// `fromTheNewestSegment` starts a live HLS input at its newest segment.
        func open(_ url: String, startingAt start: Double? = nil, audioTrack: Int? = nil, engine: PlaybackEngineKind? = nil,
                  fromTheNewestSegment: Bool = false) throws -> PlaybackSession {
            let interrupt = InterruptController(timeout: player.configuration.input.timeout)
            let current = player.lock.withLock { () -> Bool in
                guard player.generation == claim.generation else { return false }
                player.openingInterrupt = interrupt
                return true
            }
            guard current else { throw CancellationError() }
            return try player.makeSession(url: url, startingAt: start, audioTrack: audioTrack, videoOutput: claim.videoOutput,
                                          interrupt: interrupt, generation: claim.generation, engine: engine, fromTheNewestSegment: fromTheNewestSegment)
        }

        /// Whether nothing stopped, cancelled or replaced this replacement since it began.
        var isCurrent: Bool {
            player.lock.withLock { player.generation == claim.generation && player.openingInterrupt?.isCancelled != true }
        }

        /// Waits on the player's clock until `deadline`; false when the player was stopped or
        /// the input replaced meanwhile (which ends the wait at once).
        func wait(until deadline: Double) -> Bool {
            player.lock.withLock {
                while player.generation == claim.generation, player.clock.now < deadline {
                    player.clock.wait(on: player.lock, until: deadline)
                }
                return player.generation == claim.generation
            }
        }
    }

    /// Takes the session playing away, if nothing replaced or stopped the player since
    /// generation `expected`: its events are stale from here on. Called at once by whatever
    /// decides to replace it (a failing session's thread), so that nothing it still says
    /// counts; the replacement itself then runs on the item queue (``replaceSession(_:load:)``).
    func claimSession(ifStill expected: Int) -> SessionClaim? {
        lock.withLock {
            guard generation == expected else { return nil }
            generation += 1
            defer { session = nil }
            return SessionClaim(generation: generation, old: session, videoOutput: heldVideoOutput)
        }
    }

    /// The one path that replaces the session playing, whatever asks: an open, a reconnect,
    /// an engine fallback, a playlist move or loop (as mpv's `loadfile` does). On the item
    /// queue: the claimed session is stopped, keeping its video output; `load` makes the
    /// next one (it may try several times, and wait), which is installed. Nil when the
    /// player was stopped or the input replaced meanwhile (whatever `load` made is then
    /// stopped); what `load` throws is thrown.
    func replaceSession(_ claim: SessionClaim, load: (Replacement) throws -> PlaybackSession) throws -> PlaybackSession? {
        dispatchPrecondition(condition: .onQueue(itemQueue))
        claim.old?.stop(closingVideoOutput: false)
        let session = try load(Replacement(player: self, claim: claim))
        let installed = lock.withLock { () -> Bool in
            openingInterrupt = nil
            guard generation == claim.generation else { return false }
            self.session = session
            heldVideoOutput = session.videoOutput ?? heldVideoOutput
            return true
        }
        guard installed else {
            session.stop(closingVideoOutput: false)
            return nil
        }
        return session
    }

    /// ``claimSession(ifStill:)`` and ``replaceSession(_:load:)`` at once, on the item queue.
    func replaceSession(ifStill expected: Int, load: (Replacement) throws -> PlaybackSession) throws -> PlaybackSession? {
        guard let claim = claimSession(ifStill: expected) else { return nil }
        return try replaceSession(claim, load: load)
    }

    /// Runs `work` on the item queue and returns what it returns.
    func onItemQueue<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { done in
            itemQueue.async { done.resume(with: Swift.Result { try work() }) }
        }
    }
}
