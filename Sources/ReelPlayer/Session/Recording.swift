import Foundation
import ReelCore
import ReelFFmpeg

/// A recording asked of a ``Player``: where its files go and what was written, across the
/// inputs it outlives (a reconnect, the next playlist item: each starts a new file).
final class Recording: @unchecked Sendable {
    let path: String
    let segmentSeconds: Double?
    private let lock = NSLock()
    private var nextIndex = 0
    private var written: [String] = []
    private var firstFailure: OutputError?

    init(path: String, segmentSeconds: Double?) {
        self.path = path
        self.segmentSeconds = segmentSeconds
    }

    /// The name of the next file, counted as written.
    func nextPath() -> String {
        lock.lock()
        defer { lock.unlock() }
        let next = RecordingNames.path(path, index: nextIndex, segmented: segmentSeconds != nil)
        nextIndex += 1
        written.append(next)
        return next
    }

    var files: [String] {
        lock.lock()
        defer { lock.unlock() }
        return written
    }

    var failure: OutputError? {
        lock.lock()
        defer { lock.unlock() }
        return firstFailure
    }

    func failed(_ error: OutputError) {
        lock.lock()
        defer { lock.unlock() }
        if firstFailure == nil { firstFailure = error }
    }
}

/// One input's part of a ``Recording``: its packets remuxed into the current file, a new
/// file at the first keyframe past each segment's length. Fed by the read thread; stopped
/// from any thread.
final class SessionRecorder: @unchecked Sendable {
    private let recording: Recording
    private let demuxer: Demuxer
    private let streams: [Int]
    private let videoStream: Int?
    private let lock = NSLock()
    private var file: StreamRecorder?
    /// Input seconds at which the current file's first packet was written.
    private var fileStart: Double?
    private var stopped = false
    /// Called once when writing fails (a full disk): the recording stops, playback goes on.
    let onFailure: @Sendable (OutputError) -> Void

    /// Opens the recording's next file for `videoStream` and `audioStream` of `demuxer`.
    init(_ recording: Recording, demuxer: Demuxer, videoStream: Int?, audioStream: Int?, onFailure: @escaping @Sendable (OutputError) -> Void) throws(OutputError) {
        self.recording = recording
        self.demuxer = demuxer
        self.videoStream = videoStream
        streams = [videoStream, audioStream].compactMap { $0 }
        self.onFailure = onFailure
        file = try StreamRecorder(path: recording.nextPath(), copying: streams, of: demuxer, videoIndex: videoStream)
    }

    func take(_ packet: Packet) {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped, let current = file, streams.contains(packet.streamIndex) else { return }
        do {
            if let length = recording.segmentSeconds, let start = fileStart, packet.streamIndex == videoStream || videoStream == nil,
               packet.isKeyframe, let time = packet.presentationTime?.seconds, time - start >= length {
                try current.finish()
                file = try StreamRecorder(path: recording.nextPath(), copying: streams, of: demuxer, videoIndex: videoStream)
                fileStart = nil
            }
            guard let file else { return }
            let started = file.hasStarted
            try file.write(packet)
            if !started && file.hasStarted { fileStart = packet.presentationTime?.seconds }
        } catch {
            stopped = true
            let failure = error
            recording.failed(failure)
            onFailure(failure)
        }
    }

    /// Finishes the current file; later packets are not recorded.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        do {
            try file?.finish()
        } catch {
            let failure = error
            recording.failed(failure)
            onFailure(failure)
        }
        file = nil
    }
}
