/// Where the packets a live stream keeps for going back (timeshift) are, and which of them
/// go: segments that each start at a video keyframe (at any packet when there is no
/// video), each packet's timing and the place of its bytes in its segment's file. The bytes
/// themselves are elsewhere (``TimeshiftFiles``).
///
/// A segment ends at the first keyframe after it spans ``segmentSeconds``. The oldest one
/// goes once the next starts at or before the window's start (``window`` seconds before
/// the newest media), or while the whole is over ``maximumBytes``: what is kept then spans
/// at most the window and one segment, and going back anywhere in the window finds a
/// keyframe to start from.
package struct TimeshiftIndex: Sendable {
    /// One packet kept: its timing and where its bytes are.
    package struct Entry: Sendable, Equatable {
        package var streamIndex: Int
        package var pts: Int64?
        package var dts: Int64?
        package var duration: Int64
        package var timeBase: Rational
        package var isKeyframe: Bool
        package var isCorrupt: Bool
        package var captureTime: Double?
        /// Where its bytes start in its segment's file, and how many there are.
        package var offset: Int
        package var size: Int

        package init(of packet: Packet, offset: Int) {
            streamIndex = packet.streamIndex
            pts = packet.pts
            dts = packet.dts
            duration = packet.duration
            timeBase = packet.timeBase
            isKeyframe = packet.isKeyframe
            isCorrupt = packet.isCorrupt
            captureTime = packet.captureTime
            self.offset = offset
            size = packet.data.count
        }

        /// Its presentation time in seconds (its decode time when it has none).
        var start: Double? { (pts ?? dts).flatMap { MediaTime(ticks: $0, timeBase: timeBase)?.seconds } }

        /// Where it ends in seconds (as ``Packet/endSeconds`` counts).
        var end: Double? {
            guard let ticks = pts ?? dts, let unit = timeBase.doubleValue else { return nil }
            return (Double(ticks) + Double(max(duration, 0))) * unit
        }
    }

    /// The packets between two keyframes (or more), kept in one file.
    package struct Segment: Sendable {
        /// Counts up from 0 over the life of the index; names the segment's file.
        package let number: Int
        package fileprivate(set) var entries: [Entry] = []
        package fileprivate(set) var bytes = 0
        /// The media time of its first packet with one.
        package fileprivate(set) var start: Double?
    }

    /// A place in the kept packets: the segment's number and the entry's index in it.
    package struct Position: Sendable, Equatable, Comparable {
        package var segment: Int
        package var entry: Int

        package init(segment: Int, entry: Int) {
            self.segment = segment
            self.entry = entry
        }

        /// The position after this one, in the same segment (which may not hold it yet).
        package var next: Position { Position(segment: segment, entry: entry + 1) }

        package static func < (left: Position, right: Position) -> Bool {
            (left.segment, left.entry) < (right.segment, right.entry)
        }
    }

    /// Where a packet about to be kept goes.
    package struct Placement: Sendable, Equatable {
        package var segment: Int
        package var offset: Int
        /// The packet starts a new segment (and so a new file).
        package var opensSegment: Bool
    }

    /// Seconds kept behind the newest media.
    package let window: Double
    /// The least a segment spans before a keyframe may start the next.
    package let segmentSeconds: Double
    /// The stream whose keyframes start segments; nil: any packet may.
    package let videoStream: Int?
    /// The most bytes kept, whatever the window.
    package let maximumBytes: Int
    package private(set) var segments: [Segment] = []
    package private(set) var bytes = 0
    /// The end of the newest packet of each stream.
    private var newestEnd: [Int: Double] = [:]

    package init(window: Double, segmentSeconds: Double = 2, videoStream: Int?, maximumBytes: Int) {
        self.window = window
        self.segmentSeconds = segmentSeconds
        self.videoStream = videoStream
        self.maximumBytes = maximumBytes
    }

    // MARK: Keeping

    /// Whether `packet` jumped away from the newest packet of its stream
    /// (``LiveTimestamps/isJump(from:to:)``): the sender started its timestamps over, and
    /// what follows belongs to another timeline.
    package func jump(of packet: Packet) -> (from: Double, to: Double)? {
        guard let start = Entry(of: packet, offset: 0).start, let newest = newestEnd[packet.streamIndex],
              LiveTimestamps.isJump(from: newest, to: start) else { return nil }
        return (newest, start)
    }

    /// Where `packet` goes: on at the end of the newest segment, or at the start of a new
    /// one when it is a keyframe that may start one.
    package func placement(of packet: Packet) -> Placement {
        guard let newest = segments.last else { return Placement(segment: 0, offset: 0, opensSegment: true) }
        let startsSegments = videoStream.map { packet.streamIndex == $0 && packet.isKeyframe } ?? true
        if startsSegments, let start = Entry(of: packet, offset: 0).start, newest.start.map({ start - $0 >= segmentSeconds }) ?? true {
            return Placement(segment: newest.number + 1, offset: 0, opensSegment: true)
        }
        return Placement(segment: newest.number, offset: newest.bytes, opensSegment: false)
    }

    /// Keeps `packet`, whose bytes were written where ``placement(of:)`` said.
    package mutating func append(_ packet: Packet, at placement: Placement) {
        if placement.opensSegment { segments.append(Segment(number: placement.segment)) }
        let entry = Entry(of: packet, offset: placement.offset)
        segments[segments.count - 1].entries.append(entry)
        segments[segments.count - 1].bytes += entry.size
        if segments[segments.count - 1].start == nil { segments[segments.count - 1].start = entry.start }
        bytes += entry.size
        if let end = entry.end { newestEnd[entry.streamIndex] = max(newestEnd[entry.streamIndex] ?? end, end) }
    }

    /// Drops the oldest segments that the window or the byte limit no longer holds (never
    /// the newest) and returns their numbers, for their files to go too.
    package mutating func trim() -> [Int] {
        var dropped: [Int] = []
        let newest = newestEnd.values.max()
        while segments.count > 1 {
            let next = segments[1]
            let outsideWindow = newest.map { newest in next.start.map { $0 <= newest - window } ?? false } ?? false
            guard outsideWindow || bytes > maximumBytes else { break }
            bytes -= segments[0].bytes
            dropped.append(segments.removeFirst().number)
        }
        return dropped
    }

    // MARK: Reading

    /// The entry at `cursor` or the first one kept after it: a cursor at the end of a
    /// segment goes on to the next once there is one, and a cursor in a segment that was
    /// dropped goes on from the oldest kept. Nil when nothing is kept there yet.
    package func entry(from cursor: Position) -> (position: Position, entry: Entry)? {
        guard let oldest = segments.first else { return nil }
        var position = cursor.segment < oldest.number ? Position(segment: oldest.number, entry: 0) : cursor
        while let segment = segment(numbered: position.segment) {
            if position.entry < segment.entries.count { return (position, segment.entries[position.entry]) }
            position = Position(segment: position.segment + 1, entry: 0)
        }
        return nil
    }

    /// Where to read from to show media time `time`: the newest keyframe at or before it
    /// (the oldest packet kept when `time` is older than that, the newest keyframe when it
    /// is past the newest media).
    package func position(atOrBefore time: Double) -> Position? {
        guard let oldest = segments.first else { return nil }
        // The newest segment that starts at or before the time (the oldest when none does).
        var low = 0, high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if let start = segments[middle].start, start <= time { low = middle } else { high = middle - 1 }
        }
        for index in stride(from: low, through: 0, by: -1) {
            let segment = segments[index]
            if let entry = segment.entries.lastIndex(where: { isKeyframe($0) && ($0.start.map { $0 <= time } ?? false) }) {
                return Position(segment: segment.number, entry: entry)
            }
        }
        return Position(segment: oldest.number, entry: 0)
    }

    /// The media that can be gone back to: from the oldest keyframe kept to the newest
    /// media of any stream.
    package var range: ClosedRange<Double>? {
        guard let oldest = segments.first, let newest = newestEnd.values.max(),
              let start = oldest.entries.first(where: { isKeyframe($0) && $0.start != nil })?.start ?? oldest.start else { return nil }
        return min(start, newest)...newest
    }

    /// Where media is there for every stream of `streams`: the stream that arrives last
    /// sets the live edge (as the player's own measure does).
    package func liveEdge(of streams: [Int]) -> Double? {
        let ends = streams.map { newestEnd[$0] }
        guard !ends.isEmpty, !ends.contains(where: { $0 == nil }) else { return nil }
        return ends.compactMap { $0 }.min()
    }

    private func segment(numbered number: Int) -> Segment? {
        guard let oldest = segments.first?.number, number >= oldest, number - oldest < segments.count else { return nil }
        return segments[number - oldest]
    }

    private func isKeyframe(_ entry: Entry) -> Bool {
        videoStream.map { entry.streamIndex == $0 && entry.isKeyframe } ?? true
    }
}

/// The rule by which a live input's timestamps are seen to start over.
package enum LiveTimestamps {
    /// Whether a packet starting at `start` jumped away from `newest`, the end of the
    /// newest packet of its stream: back by more than 2 s (far beyond B-frame reordering)
    /// or on by more than 10 s. A live sender that restarted while the server kept the
    /// connection starts its timestamps over so.
    package static func isJump(from newest: Double, to start: Double) -> Bool {
        start < newest - 2 || start > newest + 10
    }
}
