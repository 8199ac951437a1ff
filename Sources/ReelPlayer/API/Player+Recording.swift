import Foundation
import ReelCore
import ReelFFmpeg

extension Player {
    /// Records what the player reads to `path`, without re-encoding, from the next video
    /// keyframe on (the video and audio streams played): the container follows the name
    /// (`.mkv`, `.mp4`, `.ts`); an MP4 is written in fragments, so a process killed while
    /// recording leaves a file that plays. With `segmentSeconds`, a new file begins at the
    /// first keyframe past each segment's length (`name-000.ext`, `name-001.ext`…); a
    /// reconnect, or the next playlist item, starts a new file too (`name-001.ext` after
    /// `name.ext` without segments). Playback goes on if writing fails (a full disk):
    /// ``PlayerEvent/recordingFailed(_:)`` says so, and ``stopRecording()`` throws it.
    ///
    /// May be called before ``open(_:startingAt:audioTrack:)``: the recording then starts
    /// with the input's first keyframe. Throws when no container goes by the name, the
    /// file cannot be created, or the input is not read by FFmpeg: an SDP (Reel's RTP
    /// receiver records with `RTPReceiver`), or an RTSP stream of video alone, which Reel's
    /// own client receives unless the recording starts before it is opened.
    public func startRecording(to path: String, segmentSeconds: Double? = nil) throws {
        _ = try? stopRecording()
        try StreamRecorder.check(path)
        let recording = Recording(path: path, segmentSeconds: segmentSeconds.flatMap { $0 > 0 ? $0 : nil })
        lock.withLock { self.recording = recording }
        guard let session = lock.withLock({ session }) else { return }
        try session.record(recording)
    }

    /// Ends the recording: the file being written is completed. Throws the first write
    /// error the recording met, if any.
    public func stopRecording() throws {
        let (recording, session) = lock.withLock { () -> (Recording?, PlaybackSession?) in
            defer { self.recording = nil }
            return (self.recording, self.session)
        }
        guard let recording else { return }
        session?.stopRecording()
        if let failure = recording.failure { throw failure }
    }

    /// The files the recording has written so far (the last one being written), in order.
    public var recordedFiles: [String] { lock.withLock { recording }?.files ?? [] }
}

extension PlaybackSession {
    /// Starts `recording`'s next file with this input's packets.
    func record(_ recording: Recording) throws {
        try engine.record(recording, videoStream: videoStream, audioStream: audioStream) { [callbacks] error in
            callbacks.emit(.recordingFailed(PlayerError(error)))
        }
    }

    func stopRecording() { engine.stopRecording() }
}
