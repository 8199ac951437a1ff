import Foundation
import ReelCore

// Resuming where the viewer left off (`reel play --save-position-on-quit`, `Q`): the point
// to save, as mpv's watch-later takes it.
extension Player {
    /// Where the viewer is now, to start there the next time: the position (of the picture
    /// on screen, when there is one: an exact seek there shows it again), the audio and
    /// subtitle tracks, the volume (``ResumePoints`` keeps them). After ``stop()``, where
    /// the viewer was when it stopped. Nil before anything was opened and for a live input
    /// (it has no position to come back to).
    public var resumePoint: ResumePoint? {
        guard let session = lock.withLock({ session }) else { return lock.withLock { finalResumePoint } }
        let picture = session.control.read { $0.shown?.pts }.map { $0 - session.startTime }
        guard !session.isLive, let position = picture ?? currentTime else { return nil }
        return ResumePoint(position: position, audioTrack: currentAudioTrack?.number, subtitleTrack: currentSubtitleTrack?.number, volume: volume)
    }
}
