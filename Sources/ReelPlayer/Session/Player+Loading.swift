import Foundation
import ReelCore

// Opening an input into a session: the public open's path, and the one every replacement
// (reconnect, fallback, playlist move) loads through.
extension Player {
    /// Opens `url` on a stopped player, keeping its playlist.
    func openInput(_ url: String, startingAt start: Double?, audioTrack: Int?) async throws {
        move(to: .opening)
        let expected = lock.withLock { generation }
        do {
            let session = try await withTaskCancellationHandler {
                try await onItemQueue { [self] in
                    try replaceSession(ifStill: expected) { replacement in
                        lock.withLock {
                            self.url = url
                            wantsToPlay = false
                            reconnects = ReconnectTally()
                        }
                        return try replacement.open(url, startingAt: start, audioTrack: audioTrack)
                    }
                }
            } onCancel: { [weak self] in
                self?.lock.withLock { self?.openingInterrupt }?.cancel()
            }
            // Stopped or cancelled as the open finished.
            guard session != nil, !Task.isCancelled else {
                if session != nil { stop() }
                throw CancellationError()
            }
            move(to: .ready)
        } catch where error is CancellationError || Task.isCancelled || lock.withLock({ generation != expected + 1 }) {
            // Cancelled, or stopped while opening (the claim moved the generation on by one).
            if state == .opening { move(to: .idle) }
            throw CancellationError()
        } catch {
            move(to: .failed)
            continuation.yield(.error(PlayerError(error)))
            throw error
        }
    }

    /// Opens and starts `url`'s session (blocking): paused on its first frame, shown by
    /// `videoOutput` when one is kept from the input before, else by a new output.
    func makeSession(url: String, startingAt start: Double?, audioTrack: Int?, videoOutput: VideoOutput?,
                     interrupt: InterruptController, generation: Int, engine: PlaybackEngineKind? = nil,
                     fromTheNewestSegment: Bool = false) throws -> PlaybackSession {
        var configuration = configuration
        if let engine { configuration.engine = .only(engine) }
        // FFmpeg's HLS demuxer; other demuxers leave the option unread.
        if fromTheNewestSegment { configuration.input.formatOptions["live_start_index"] = "-1" }
        let openedAt = clock.now
        let outputs = PlaybackSession.Outputs(video: videoOutput ?? makeVideoOutput(), audio: makeAudioOutput(), tap: frameTap,
                                              displayThread: displayThread, overlays: overlays)
        let callbacks = PlaybackSession.Callbacks(
            emit: { [weak self] event in self?.handle(event, generation: generation) },
            onEnd: { [weak self] in self?.sessionFailed(generation: generation) },
            onCommand: { [weak self] command in self?.perform(command) },
            onBuffering: { [weak self] buffering in
                guard let self else { return }
                if buffering { move(to: .buffering) } else if state == .buffering { move(to: .playing) }
            })
        let opened = try openEngine(url, configuration, outputs.video != nil, outputs.audio != nil, interrupt,
                                    lock.withLock { recording != nil }, callbacks.emit)
        // An engine not started has no threads: one the session refuses goes with it (its
        // stop would cancel the open's interrupt, which says the player was stopped).
        let session = try PlaybackSession(url: url, engine: opened, configuration: configuration, outputs: outputs, callbacks: callbacks,
                                          clock: clock, openedAt: openedAt, audioTrack: audioTrack)
        if let start { session.requestSeek(to: session.startTime + max(start, 0), mode: .exact) }
        if let recording = lock.withLock({ self.recording }) {
            do {
                try session.record(recording)
            } catch {
                recording.failed(error as? OutputError ?? OutputError(recording.path, "\(error)"))
                continuation.yield(.recordingFailed(PlayerError(error)))
            }
        }
        do {
            try session.start()
        } catch {
            session.stop(closingVideoOutput: videoOutput == nil)
            throw error
        }
        return session
    }
}
