import Foundation
import ReelCore
import ReelGStreamer

extension Player {
    /// Whether the failure of the session of `generation` is its engine's decoding, to be
    /// tried in the other engine: once per input, when the selection allows a fallback
    /// (a session opened by a fallback has its engine forced), and not for a live input,
    /// which reconnects instead.
    func fallsBackMidStream(_ error: PlayerError, generation expected: Int) -> Bool {
        guard error.underlying is DecodeError || error.underlying is GStreamerError else { return false }
        return lock.withLock {
            guard generation == expected, let session else { return false }
            return session.configuration.engine.fallsBack && !session.isLive
        }
    }

    /// The engine of `generation` failed while decoding (`error`): the input is opened again
    /// in the other engine at the position on screen, in the same window, and plays on
    /// (or stays paused). If the other engine cannot open it either, playback fails with
    /// the first engine's error.
    func fallBack(after failure: PlayerError, generation lost: Int) {
        let position = currentTime
        let taken = lock.withLock { () -> (url: String, old: PlaybackSession, generation: Int)? in
            guard generation == lost, let url = queue?.current ?? url, let session else { return nil }
            generation += 1
            defer { self.session = nil }
            return (url, session, generation)
        }
        guard let (url, old, expected) = taken else { return }
        let from = old.engine.kind
        let to: PlaybackEngineKind = from == .ffmpeg ? .gstreamer : .ffmpeg
        itemQueue.async { [self] in
            old.stop(closingVideoOutput: false)
            let video = lock.withLock { heldVideoOutput }
            continuation.yield(.engineFallback(from: from, to: to, reason: failure.description))
            let interrupt = InterruptController(timeout: configuration.input.timeout)
            do {
                let session = try makeSession(url: url, startingAt: position, audioTrack: nil, videoOutput: video,
                                              interrupt: interrupt, generation: expected, engine: to)
                guard install(session, generation: expected) else {
                    session.stop(closingVideoOutput: false)
                    return
                }
                if lock.withLock({ wantsToPlay }) { play() }
            } catch {
                // The first engine's words are the ones to act on.
                guard lock.withLock({ generation == expected }) else { return }
                move(to: .failed)
                continuation.yield(.error(failure))
            }
        }
    }
}
