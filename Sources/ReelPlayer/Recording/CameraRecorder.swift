import Foundation
import ReelCore
import ReelFFmpeg

/// What a ``CameraRecorder`` tells.
public enum CameraRecorderEvent: Sendable {
    /// The stream opened (again).
    case connected
    /// A segment began, named by the wall-clock time of its first picture.
    case segmentStarted(String)
    /// A segment closed: its index line was written.
    case segmentClosed(RecordingIndexEntry)
    /// The retention policy deleted these segments, oldest first.
    case deleted([String])
    /// The stream ended or failed (`reason`); it is opened again with back-off.
    case lost(reason: String)
    /// Recording stopped for good: the stream refused the credentials, the directory
    /// cannot be written, or no reconnect succeeded.
    case failed(reason: String)
}

/// Records a camera's stream into a directory of its own without decoding it, as an NVR
/// does: segments cut at keyframes (``SegmentTracker``), each named by the wall-clock time
/// of its first picture (`2026-11-28T10-15-00Z.mp4`, fragmented MP4, so a killed process
/// leaves segments that play), an index line as each closes (`index.jsonl`,
/// ``RecordingIndexEntry``), and the ``RetentionPolicy`` applied at every keyframe (never
/// to the segment being written, which counts with what it will grow by until the next
/// keyframe: the GOP before), so the directory stays within its size. A stream that
/// drops is opened again with back-off for as long as it records. `reel export` cuts a
/// time span back out (``RecordingExport``).
public final class CameraRecorder: @unchecked Sendable {
    /// The stream recorded.
    public let url: String
    /// Where its segments and index go.
    public let directory: String
    /// Seconds a segment lasts at least.
    public let segmentSeconds: Double
    /// What is deleted, and when.
    public let retention: RetentionPolicy
    /// Segments, deletions, losses.
    public let events: AsyncStream<CameraRecorderEvent>

    /// The index's name in ``directory``.
    public static let indexName = "index.jsonl"

    private let continuation: AsyncStream<CameraRecorderEvent>.Continuation
    private let input: DemuxOptions
    private let lock = ConditionLock()
    private var interrupt: InterruptController?
    private var started = false
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)
    /// Why the index could not be written, if it could not (the recorder's thread only).
    private var indexFailure: (any Error)?

    /// A recorder of `url` into `directory` (made when missing); throws when it cannot be.
    public init(url: String, directory: String, segmentSeconds: Double = 60, retention: RetentionPolicy = RetentionPolicy(),
                input: DemuxOptions = DemuxOptions()) throws {
        self.url = url
        self.directory = directory
        self.segmentSeconds = max(segmentSeconds, 1)
        self.retention = retention
        self.input = input
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard FileManager.default.isWritableFile(atPath: directory) else { throw OutputError(directory, "the directory cannot be written") }
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    deinit { continuation.finish() }

    /// Starts recording on a thread of its own.
    public func start() {
        let go = lock.withLock { () -> Bool in
            guard !started, !stopping else { return false }
            started = true
            return true
        }
        guard go else { return }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "reel.camera-recorder"
        thread.start()
    }

    /// Stops: the segment being written is closed and indexed. Returns when done.
    public func stop() {
        let wasStarted = lock.withLock { () -> Bool in
            stopping = true
            interrupt?.cancel()
            lock.broadcast()
            return started
        }
        if wasStarted {
            finished.wait()
            finished.signal()
        }
        continuation.finish()
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    private func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

    private func run() {
        var schedule = ReconnectSchedule(limit: .infinity)
        var lostAt: Double?
        // A camera that never answers must not hold a read for ever.
        var options = input
        options.timeout = options.timeout ?? 15
        while !isStopping {
            do {
                let controller = InterruptController(timeout: options.timeout)
                guard lock.withLock({ () -> Bool in
                    interrupt = controller
                    return !stopping
                }) else { return }
                let demuxer = try Demuxer(url: url, options: options, interrupt: controller)
                continuation.yield(.connected)
                var recorded = false
                defer {
                    // Back-off starts again only once pictures came: a server that accepts
                    // and drops at once is not asked every quarter of a second.
                    if recorded {
                        schedule = ReconnectSchedule(limit: .infinity)
                        lostAt = nil
                    }
                }
                try record(from: demuxer, recorded: &recorded)
                if isStopping { return }
                continuation.yield(.lost(reason: "the stream ended"))
            } catch let error as WriteFailure {
                continuation.yield(.failed(reason: "\(error.error)"))
                return
            } catch {
                if isStopping { return }
                if let input = error as? InputError, !input.isWorthRetrying {
                    continuation.yield(.failed(reason: "\(error)"))
                    return
                }
                // A muxer that refused a packet (a timestamp jump) starts again with a new segment too.
                continuation.yield(.lost(reason: "\(error)"))
            }
            let lost = lostAt ?? monotonicSeconds()
            lostAt = lost
            guard let wait = schedule.nextWait(elapsed: monotonicSeconds() - lost) else {
                continuation.yield(.failed(reason: "the stream did not come back"))
                return
            }
            lock.withLock { if !stopping { lock.wait(seconds: wait) } }
        }
    }

    /// The recording's files cannot be written (a full disk): it stops for good.
    private struct WriteFailure: Error {
        let error: any Error
    }

    /// Headroom kept beyond the largest GOP seen: a fragment's boxes, a trailer, a header.
    static let containerHeadroom: Int64 = 64 << 10

    /// Copies the stream's packets into segments until it ends or the recorder stops;
    /// `recorded` says whether any picture was written.
    private func record(from demuxer: Demuxer, recorded: inout Bool) throws {
        let video = demuxer.bestStream(of: .video), audio = demuxer.bestStream(of: .audio)
        let streams = [video, audio].compactMap { $0 }
        var tracker = SegmentTracker(segmentSeconds: segmentSeconds)
        var file: StreamRecorder?
        /// The segment whose file was made: only it is indexed.
        var written: String?
        // What the segment being written grows by before retention looks again (the largest
        // GOP so far, and the boxes around it) is kept free beforehand.
        var bytesSinceKeyframe: Int64 = 0, largestGOP: Int64 = 0
        var headroom: Int64 { largestGOP + Self.containerHeadroom }
        func keyframe() {
            largestGOP = max(largestGOP, bytesSinceKeyframe)
            bytesSinceKeyframe = 0
        }
        defer {
            // The input ended or failed, or the recorder stops: the segment closes whole.
            applyRetention(writing: written, headroom: headroom)
            try? file?.finish()
            if let entry = tracker.close(), entry.file == written { closed(entry) }
        }
        while !isStopping, let packet = try demuxer.readPacket() {
            if let indexFailure { throw WriteFailure(error: indexFailure) }
            guard streams.contains(packet.streamIndex), let time = packet.presentationTime?.seconds else { continue }
            let startsPictures = packet.streamIndex == video || video == nil
            let action = tracker.take(startsPictures: startsPictures, isKeyframe: packet.isKeyframe, time: time, received: Date(),
                                      taken: { FileManager.default.fileExists(atPath: self.path($0)) })
            switch action {
            case .skip:
                continue
            case .write:
                if startsPictures && packet.isKeyframe {
                    keyframe()
                    applyRetention(writing: written, headroom: headroom)
                }
                try file?.write(packet)
            case .start(let name, let closed):
                keyframe()
                applyRetention(writing: written, headroom: headroom)
                try file?.finish()
                file = nil
                if let closed, closed.file == written { self.closed(closed) }
                written = nil
                do {
                    file = try StreamRecorder(path: path(name), copying: streams, of: demuxer, videoIndex: video)
                } catch {
                    throw WriteFailure(error: error)
                }
                written = name
                applyRetention(writing: name, headroom: headroom)
                try file?.write(packet)
                continuation.yield(.segmentStarted(name))
            }
            bytesSinceKeyframe += Int64(packet.data.count)
            recorded = true
        }
    }

    /// A segment closed: its line goes into the index (after a newline when a crash left the
    /// last line without one).
    private func closed(_ entry: RecordingIndexEntry) {
        let index = URL(fileURLWithPath: path(Self.indexName))
        do {
            if !FileManager.default.fileExists(atPath: index.path) { _ = FileManager.default.createFile(atPath: index.path, contents: nil) }
            let handle = try FileHandle(forUpdating: index)
            defer { try? handle.close() }
            let end = try handle.seekToEnd()
            var line = entry.line + "\n"
            if end > 0 {
                try handle.seek(toOffset: end - 1)
                if handle.readData(ofLength: 1) != Data("\n".utf8) { line = "\n" + line }
                try handle.seekToEnd()
            }
            try handle.write(contentsOf: Data(line.utf8))
        } catch {
            // The recording stops at its next packet: segments no index lists are not kept track of.
            indexFailure = error
            return
        }
        continuation.yield(.segmentClosed(entry))
    }

    /// Deletes what the policy says, oldest first, and rewrites the index without it; the
    /// segment `writing` counts with `headroom` more bytes (what it grows by before the next look).
    private func applyRetention(writing: String?, headroom: Int64 = 0) {
        guard retention.maximumAge != nil || retention.maximumBytes != nil else { return }
        let index = path(Self.indexName)
        let indexed = RecordingIndex.entries(of: (try? Data(contentsOf: URL(fileURLWithPath: index))) ?? Data()).entries
        func bytes(_ name: String) -> Int64 {
            ((try? FileManager.default.attributesOfItem(atPath: path(name)))?[.size] as? NSNumber)?.int64Value ?? 0
        }
        let now = Date()
        var segments = indexed.map { RetentionPolicy.Segment(file: $0.file, first: $0.first, last: $0.last, bytes: bytes($0.file)) }
        if let writing {
            segments.append(RetentionPolicy.Segment(file: writing, first: now, last: now, bytes: bytes(writing) + headroom, isBeingWritten: true))
        }
        let doomed = retention.segmentsToDelete(segments, now: now)
        guard !doomed.isEmpty else { return }
        for segment in doomed { try? FileManager.default.removeItem(atPath: path(segment.file)) }
        let gone = Set(doomed.map(\.file))
        let kept = indexed.filter { !gone.contains($0.file) }.map { $0.line + "\n" }.joined()
        // A new index replaces the old whole (a crash leaves one or the other, never half).
        try? Data(kept.utf8).write(to: URL(fileURLWithPath: index), options: .atomic)
        continuation.yield(.deleted(doomed.map(\.file)))
    }
}
