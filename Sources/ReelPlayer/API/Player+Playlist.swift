import Foundation
import ReelCore

extension Player {
    /// The playlist being played, with its current item; nil when a single input was
    /// opened with ``open(_:startingAt:audioTrack:)``.
    public var playlist: Playlist? { lock.withLock { queue } }

    /// Plays `playlist`'s items one after another, from its current item: each is opened
    /// when the one before ends, in the same window (as mpv keeps it), and mpv's loops
    /// apply (`Playlist.loopFile`, `Playlist.loopPlaylist`). The player is then `ready`
    /// on the first item that opens; ``PlayerEvent/itemStarted(index:url:)`` and
    /// ``PlayerEvent/itemFailed(index:url:error:)`` report each item, and
    /// ``PlayerEvent/endOfStream`` comes once, when nothing is left to play.
    ///
    /// Items that cannot be opened are skipped; this throws ``PlaylistError`` (and the
    /// player fails) only when none can be. `start` seconds apply to the item opened first.
    public func open(_ playlist: Playlist, startingAt start: Double? = nil) async throws {
        stop()
        let expected = lock.withLock { () -> Int in
            queue = playlist
            wantsToPlay = false
            return generation
        }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                    itemQueue.async { [self] in done.resume(with: Result { try openQueuedItem(generation: expected, endsWhenExhausted: false, startingAt: start) }) }
                }
            } onCancel: { [weak self] in
                self?.lock.withLock { self?.openingInterrupt }?.cancel()
            }
        } catch let error as CancellationError {
            throw error
        } catch {
            move(to: .failed)
            continuation.yield(.error(PlayerError(error)))
            throw error
        }
    }

    /// Adds `url` at the end of the playlist being played (mpv's `loadfile URL append`);
    /// false when nothing is being played.
    @discardableResult
    public func appendToPlaylist(_ url: String) -> Bool {
        lock.withLock {
            guard queue != nil else { return false }
            queue?.append(url)
            return true
        }
    }

    /// Plays the playlist item `offset` places away (1 the next, −1 the one before), as
    /// the window's `>` and `<` do; false when there is none (past either end of a list
    /// that does not loop). Playing or paused stays as it was.
    @discardableResult
    public func movePlaylist(by offset: Int) async throws -> Bool {
        try await playQueuedItem { $0.move(by: offset) != nil }
    }

    /// Plays the playlist item at `index`; false when there is none.
    @discardableResult
    public func playItem(at index: Int) async throws -> Bool {
        try await playQueuedItem { $0.select(index) }
    }

    // MARK: Inside

    func movePlaylistFromKey(by offset: Int) {
        Task { [self] in
            guard lock.withLock({ queue }) != nil else { return showMessage("No playlist") }
            if (try? await movePlaylist(by: offset)) != true { showMessage(offset > 0 ? "No next item" : "No previous item") }
        }
    }

    /// An item played to its end: again, the next one, or the end of the list.
    func queuedItemEnded(generation expected: Int) {
        itemQueue.async { [self] in
            let (step, session) = lock.withLock { generation == expected ? (queue?.itemEnded(), self.session) : (nil, nil) }
            switch step {
            case .replay?:
                guard let session else { return }
                session.requestSeek(to: session.startTime, mode: .exact)
            case .play?:
                try? openQueuedItem(generation: expected, endsWhenExhausted: true)
            case .finish?:
                endAndTell()
            case nil:
                return
            }
        }
    }

    /// An item failed while playing: reported, and the next one plays.
    func queuedItemFailed(_ error: PlayerError, generation expected: Int) {
        itemQueue.async { [self] in
            let failed = lock.withLock { () -> (step: Playlist.Step?, index: Int, url: String)? in
                guard generation == expected, let queue else { return nil }
                let item = (queue.index, queue.current)
                return (self.queue?.itemFailed(), item.0, item.1)
            }
            guard let failed else { return }
            continuation.yield(.itemFailed(index: failed.index, url: failed.url, error: error))
            guard case .play = failed.step else {
                move(to: .failed)
                continuation.yield(.error(error))
                return
            }
            try? openQueuedItem(generation: expected, endsWhenExhausted: true)
        }
    }

    /// Opens the queue's current item in place of the input playing, keeping its video
    /// output; items that fail to open are reported and skipped. On the item queue.
    /// When no item is left to try, playback ends (`endsWhenExhausted`) or this throws
    /// the last failure.
    func openQueuedItem(generation expected: Int, endsWhenExhausted: Bool, startingAt start: Double? = nil) throws {
        var expected = expected
        var failures: [PlaylistError.Failure] = []
        while true {
            // Stop and the item moves change the queue on this queue or with the generation.
            guard let item = lock.withLock({ generation == expected ? queue.map { (index: $0.index, url: $0.current) } : nil }),
                  let claim = claimSession(ifStill: expected) else { throw CancellationError() }
            expected = claim.generation
            move(to: .opening)
            do {
                guard try replaceSession(claim, load: { try $0.open(item.url, startingAt: start) }) != nil else { throw CancellationError() }
                continuation.yield(.itemStarted(index: item.index, url: item.url))
                move(to: .ready)
                if lock.withLock({ wantsToPlay }) { play() }
                return
            } catch let error as CancellationError {
                throw error
            } catch {
                let step = lock.withLock { () -> Playlist.Step?? in
                    guard generation == expected, openingInterrupt?.isCancelled != true else { return nil }
                    openingInterrupt = nil
                    return .some(queue?.itemFailed())
                }
                guard let step else { throw CancellationError() }
                let failure = PlaylistError.Failure(index: item.index, url: item.url, error: PlayerError(error))
                failures.append(failure)
                continuation.yield(.itemFailed(index: failure.index, url: failure.url, error: failure.error))
                if case .play = step { continue }
                guard endsWhenExhausted else { throw PlaylistError(failures: failures) }
                continuation.yield(.endOfStream)
                stop()
                return
            }
        }
    }

    /// Changes the queue's current item with `choose` (false: no such item) and plays it, on
    /// the item queue.
    private func playQueuedItem(_ choose: @escaping @Sendable (inout Playlist) -> Bool) async throws -> Bool {
        try await withCheckedThrowingContinuation { done in
            itemQueue.async { [self] in
                done.resume(with: Result {
                    let expected = lock.withLock { generation }
                    let chosen = lock.withLock { () -> Bool in
                        guard queue != nil else { return false }
                        return choose(&queue!)
                    }
                    guard chosen else { return false }
                    try openQueuedItem(generation: expected, endsWhenExhausted: true)
                    return true
                })
            }
        }
    }
}

/// No item of a playlist could be played.
public struct PlaylistError: Error, Sendable, CustomStringConvertible {
    /// An item that failed, and why.
    public struct Failure: Sendable {
        /// Its index in the playlist.
        public var index: Int
        /// Its file or URL.
        public var url: String
        /// Why it could not be opened.
        public var error: PlayerError
    }

    /// Each item tried, in the order tried.
    public var failures: [Failure]

    public var description: String {
        guard failures.count != 1 else { return failures[0].error.description }
        return "none of the \(failures.count) inputs could be played: " + failures.map { "\($0.url): \($0.error)" }.joined(separator: "; ")
    }
}
