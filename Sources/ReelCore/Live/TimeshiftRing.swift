/// A live stream's packets kept on disk for the viewer to go back to (timeshift). The writer
/// (the thread that reads the network) keeps every packet as it comes, whatever the viewer
/// does; the reader (the player's read thread) takes them from its cursor on, waits at the
/// newest for more, and moves the cursor inside the window with ``seek(to:)``. What the
/// window no longer holds is dropped from the disk (``TimeshiftIndex``, ``TimeshiftFiles``).
package final class TimeshiftRing: @unchecked Sendable {
    private enum Ending {
        case end
        case failure(any Error)
    }

    /// The input's URL, for the errors the reader sees.
    package let url: String
    private let lock = ConditionLock()
    private var index: TimeshiftIndex
    private let files: TimeshiftFiles
    private var cursor = TimeshiftIndex.Position(segment: 0, entry: 0)
    private var ending: Ending?
    private var cancelled = false
    /// A seek is waiting for the reader: a read waiting at the newest stops (``wake()``).
    private var wakePending = false
    /// The streams whose timestamps starting over ends what is kept.
    private let jumpsWatched: Set<Int>?

    /// A ring that keeps `window` seconds (and at most `maximumBytes`) in files in
    /// `directory`; `videoStream`'s keyframes start its segments of at least
    /// `segmentSeconds`. A jump in the timestamps of a stream of `jumpsWatched` (all when
    /// nil) ends it.
    package init(url: String, window: Double, videoStream: Int?, directory: String, maximumBytes: Int, segmentSeconds: Double = 2,
                 jumpsWatched: Set<Int>? = nil) {
        self.url = url
        self.jumpsWatched = jumpsWatched
        index = TimeshiftIndex(window: window, segmentSeconds: segmentSeconds, videoStream: videoStream, maximumBytes: maximumBytes)
        files = TimeshiftFiles(directory: directory)
    }

    // MARK: Writer

    /// Keeps `packet`. Throws when it cannot be written (then nothing more is kept) or when
    /// its timestamps jumped (a sender that restarted: what follows is another timeline).
    package func keep(_ packet: Packet) throws {
        let watched = jumpsWatched.map { $0.contains(packet.streamIndex) } ?? true
        let (placement, jump) = lock.withLock { (index.placement(of: packet), watched ? index.jump(of: packet) : nil) }
        if let jump { throw InputError(.timestampsJumped(from: jump.from, to: jump.to), operation: .read, url: url) }
        if placement.opensSegment { try files.create(placement.segment) }
        try files.write(packet.data, at: placement.offset, to: placement.segment)
        let dropped = lock.withLock {
            index.append(packet, at: placement)
            lock.broadcast()
            return index.trim()
        }
        for number in dropped { files.drop(number) }
    }

    /// The writer is done: the input ended (`error` nil) or failed. The reader sees it
    /// once it has read everything kept.
    package func finish(_ error: (any Error)?) {
        lock.withLock {
            if ending == nil { ending = error.map { .failure($0) } ?? .end }
            lock.broadcast()
        }
    }

    // MARK: Reader

    /// The packet at the cursor, which then moves on: waits for the writer at the newest;
    /// nil once the input ended and everything was read; throws the input's failure there,
    /// and at once after ``cancel()``.
    package func read() throws -> Packet? {
        while true {
            let found = try lock.withLock { () throws -> (position: TimeshiftIndex.Position, entry: TimeshiftIndex.Entry)? in
                while true {
                    if cancelled { throw InputError(.cancelled, operation: .read, url: url) }
                    if let found = index.entry(from: cursor) { return found }
                    switch ending {
                    case .end?: return nil
                    case .failure(let error)?: throw error
                    case nil:
                        if wakePending {
                            wakePending = false
                            throw TimeshiftRing.Woken()
                        }
                        lock.wait()
                    }
                }
            }
            guard let found else { return nil }
            let (position, entry) = found
            let storage = HeapStorage(adopting: .allocate(byteCount: entry.size, alignment: 64))
            guard files.read(into: storage.bytes, at: entry.offset, from: position.segment) else {
                // Its segment was dropped meanwhile (the next look finds the oldest kept), or the disk failed.
                if lock.withLock({ index.entry(from: cursor)?.position == position }) {
                    throw InputError(.other, operation: .read, url: url, detail: "timeshift: cannot read back what it kept in \(files.directory)")
                }
                continue
            }
            lock.withLock { if index.entry(from: cursor)?.position == position { cursor = position.next } }
            var packet = Packet(streamIndex: entry.streamIndex, pts: entry.pts, dts: entry.dts, duration: entry.duration, timeBase: entry.timeBase,
                                isKeyframe: entry.isKeyframe, isCorrupt: entry.isCorrupt, data: UnsafeRawBufferPointer(storage.bytes), owner: storage)
            packet.captureTime = entry.captureTime
            return packet
        }
    }

    /// Moves the cursor to the newest keyframe at or before media time `time`, inside
    /// what is kept (``TimeshiftIndex/position(atOrBefore:)``).
    package func seek(to time: Double) {
        lock.withLock {
            if let position = index.position(atOrBefore: time) { cursor = position }
        }
    }

    /// A waiting read (or the next one that would wait) throws ``Woken`` instead: the
    /// reader has a seek to carry out, which must not wait for the live input's next packet.
    package func wake() {
        lock.withLock {
            wakePending = true
            lock.broadcast()
        }
    }

    /// What a read waiting at the newest throws when ``wake()`` stops it.
    package struct Woken: Error {}

    /// Moves the cursor on to the newest keyframe at or before `time` when that is ahead
    /// of it (a live jump); never back.
    package func skipAhead(to time: Double) {
        lock.withLock {
            guard let position = index.position(atOrBefore: time), let current = index.entry(from: cursor)?.position, current < position else { return }
            cursor = position
        }
    }

    /// Wakes a waiting read, which then throws (as every later one does).
    package func cancel() {
        lock.withLock {
            cancelled = true
            lock.broadcast()
        }
    }

    // MARK: What it holds

    /// The media times that can be gone back to, from the oldest keyframe kept to the newest media.
    package var range: ClosedRange<Double>? { lock.withLock { index.range } }

    /// Where media is there for every stream of `streams` (``TimeshiftIndex/liveEdge(of:)``).
    package func liveEdge(of streams: [Int]) -> Double? { lock.withLock { index.liveEdge(of: streams) } }

    /// The bytes of the packets kept.
    package var bytesKept: Int { lock.withLock { index.bytes } }

    /// The bytes the ring's files take on disk, as the system counts them.
    package var bytesOnDisk: Int { files.bytesOnDisk }
}
