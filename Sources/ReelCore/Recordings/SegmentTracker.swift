import Foundation

/// Cuts a camera's recording into segments, as its packets arrive: a segment starts at a
/// video keyframe (the first packet, without video), the next at the first keyframe past
/// `segmentSeconds` of the one before; each is named by the wall-clock time its first
/// picture was received, and closes into the index entry that lists it (its first and last
/// picture, its keyframes). Pure: the recorder feeds it packets' times and acts on what it says.
public struct SegmentTracker: Sendable {
    /// What the recorder does with a packet.
    public enum Action: Sendable, Equatable {
        /// Leave it out: no segment has started (no keyframe yet).
        case skip
        /// Write it into the segment being written.
        case write
        /// Start segment `name` with it (closing `closed`, the one before, when there was one).
        case start(name: String, closed: RecordingIndexEntry?)
    }

    /// Seconds a segment lasts at least (it ends at the next keyframe).
    public let segmentSeconds: Double
    /// The container's extension of the segments' names.
    public let fileExtension: String

    private struct Open: Sendable {
        var name: String
        var first: Date
        var firstTime: Double
        var lastTime: Double
        var keyframes: [Double]
    }
    private var open: Open?

    /// A tracker of segments of `segmentSeconds` (at least a second), named `….fileExtension`.
    public init(segmentSeconds: Double, fileExtension: String = "mp4") {
        self.segmentSeconds = max(segmentSeconds, 1)
        self.fileExtension = fileExtension
    }

    /// The name of the segment being written, if one is.
    public var current: String? { open?.name }

    /// A packet: whether it `startsPictures` (a video packet, or any packet of an input
    /// without video), whether it is a keyframe, its presentation `time` (seconds, on the
    /// input's timeline) and when it was `received`. `taken` names already used (a segment
    /// that starts in the same second as one before it takes the next second's name).
    public mutating func take(startsPictures: Bool, isKeyframe: Bool, time: Double, received: Date,
                              taken: (String) -> Bool = { _ in false }) -> Action {
        guard startsPictures else { return open == nil ? .skip : .write }
        if var current = open {
            // A millisecond short is long enough (times on a 90 kHz clock do not add up
            // exactly); a keyframe back in time (the stream started again) starts anew.
            if isKeyframe, time - current.firstTime >= segmentSeconds - 0.001 || time < current.lastTime - 1 {
                let closed = close()
                return .start(name: begin(time: time, received: received, taken: taken), closed: closed)
            }
            current.lastTime = max(current.lastTime, time)
            if isKeyframe { current.keyframes.append(max(time - current.firstTime, current.keyframes.last ?? 0)) }
            open = current
            return .write
        }
        guard isKeyframe else { return .skip }
        return .start(name: begin(time: time, received: received, taken: taken), closed: nil)
    }

    /// Closes the segment being written (the input ended or the recording stops): its entry.
    public mutating func close() -> RecordingIndexEntry? {
        guard let current = open else { return nil }
        open = nil
        return RecordingIndexEntry(file: current.name, first: current.first,
                                   last: current.first.addingTimeInterval(current.lastTime - current.firstTime), keyframes: current.keyframes)
    }

    private mutating func begin(time: Double, received: Date, taken: (String) -> Bool) -> String {
        var start = received, name = RecordingClock.segmentName(start: start, extension: fileExtension)
        for _ in 0..<60 where taken(name) {
            start = start.addingTimeInterval(1)
            name = RecordingClock.segmentName(start: start, extension: fileExtension)
        }
        open = Open(name: name, first: received, firstTime: time, lastTime: time, keyframes: [0])
        return name
    }
}
