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
        guard let url = lock.withLock({ queue?.current ?? self.url }), let claim = claimSession(ifStill: lost) else { return }
        let from = claim.old?.engine.kind ?? .ffmpeg
        let to: PlaybackEngineKind = from == .ffmpeg ? .gstreamer : .ffmpeg
        itemQueue.async { [self] in
            do {
                let session = try replaceSession(claim) { replacement in
                    continuation.yield(.engineFallback(from: from, to: to, reason: failure.description))
                    return try replacement.open(url, startingAt: position, engine: to)
                }
                if session != nil, lock.withLock({ wantsToPlay }) { play() }
            } catch {
                // The first engine's words are the ones to act on.
                guard lock.withLock({ generation == claim.generation }) else { return }
                move(to: .failed)
                continuation.yield(.error(failure))
            }
        }
    }
}
