import Foundation
import ReelCore

extension Player {
    /// The input's video, audio and subtitle tracks, numbered within their type as mpv
    /// numbers them, then the subtitle files loaded beside it; empty before opening.
    public var tracks: [Track] {
        guard let session = lock.withLock({ session }) else { return [] }
        let own = Track.tracks(of: session.info)
        guard let subtitles = session.subtitles else { return own }
        return own.filter { $0.type != .subtitle } + subtitles.tracks
    }

    /// The subtitle track shown, if any.
    public var currentSubtitleTrack: Track? { lock.withLock { session }?.subtitles?.shown }

    /// Shows subtitle track `number` (`Track.number` of a subtitle track in ``tracks``),
    /// or none for nil. Text tracks switch at once, with the events read so far.
    public func selectSubtitleTrack(_ number: Int?) throws {
        guard let number else {
            try lock.withLock { session }?.subtitles?.show(nil)
            return
        }
        guard let subtitles = lock.withLock({ session })?.subtitles,
              let track = subtitles.tracks.first(where: { $0.number == number }) else { throw TrackError.noSuchSubtitleTrack(number) }
        try subtitles.show(track)
    }

    /// Whether the subtitle track shown is drawn (mpv's `v`).
    public var subtitlesVisible: Bool {
        get { lock.withLock { session }?.control.read { $0.subtitleSettings.visible } ?? true }
        set { lock.withLock { session }?.control.update { $0.subtitleSettings.visible = newValue } }
    }

    /// Seconds subtitles show later than their times say (earlier when negative; `z`/`x`).
    public var subtitleDelay: Double {
        get { lock.withLock { session }?.control.read { $0.subtitleSettings.delay } ?? configuration.subtitleDelay }
        set { lock.withLock { session }?.control.update { $0.subtitleSettings.delay = newValue } }
    }

    /// The subtitles' text size factor, 0.1 to 10 (mpv's `--sub-scale`).
    public var subtitleScale: Double {
        get { lock.withLock { session }?.control.read { $0.subtitleSettings.scale } ?? configuration.subtitleScale }
        set { lock.withLock { session }?.control.update { $0.subtitleSettings.scale = min(max(newValue, 0.1), 10) } }
    }

    /// The audio track being played, if any.
    public var currentAudioTrack: Track? {
        guard let index = lock.withLock({ session })?.control.read({ $0.audioStreamIndex }) else { return nil }
        return tracks.first { $0.type == .audio && $0.streamIndex == index }
    }

    /// Switches to audio stream `index` (a stream index of ``mediaInfo``, as
    /// `Track.streamIndex` gives it), keeping the position and whether it was playing.
    ///
    /// While audio plays, the switch happens in place, as mpv's: the new stream's decoder is
    /// opened and an exact seek to the position starts it there (the picture stays, the
    /// sound changes within a few tens of milliseconds). A player opened without audio
    /// opens the input again with that stream.
    public func selectAudioTrack(_ index: Int) async throws {
        guard tracks.contains(where: { $0.type == .audio && $0.streamIndex == index }) else { throw TrackError.noSuchAudioStream(index) }
        if let session = lock.withLock({ session }), session.audioStream != nil {
            guard session.control.read({ $0.audioStreamIndex }) != index else { return }
            let position = session.control.position(session.master, at: clock.now) ?? session.startTime
            try session.switchAudio(to: index, at: position)
            return
        }
        guard let url = lock.withLock({ self.url }) else { return }
        let position = currentTime ?? 0
        let (playing, playlist) = lock.withLock { (wantsToPlay, queue) }
        stop()
        lock.withLock { queue = playlist }
        try await openInput(url, startingAt: position, audioTrack: index)
        if playing { play() } else { pause() }
    }
}
