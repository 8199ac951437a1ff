/// The gift animations playing over a player's picture, on its clock: which frame of each is
/// shown at a presentation time, in which order they are drawn (lowest z first, then the
/// order they started), and when each has played its loops.
public struct OverlaySchedule: Sendable {
    /// One animation.
    public struct Entry: Sendable, Hashable {
        /// Its identifier, given by whoever started it.
        public var id: Int
        /// The player's time at which its first frame is shown.
        public var start: Double
        /// Its frames a second.
        public var framesPerSecond: Double
        /// Its frames in one loop.
        public var frameCount: Int
        /// How many times it plays; 0 plays until removed.
        public var loops: Int
        /// Its drawing order: higher is drawn over lower.
        public var z: Int

        /// An entry; at least one frame at a positive rate.
        public init(id: Int, start: Double, framesPerSecond: Double, frameCount: Int, loops: Int = 1, z: Int = 0) {
            self.id = id
            self.start = start
            self.framesPerSecond = framesPerSecond.isFinite && framesPerSecond > 0 ? framesPerSecond : 25
            self.frameCount = max(frameCount, 1)
            self.loops = max(loops, 0)
            self.z = z
        }

        /// How many frames have been due by `time` (from 1 at its start), or 0 before it.
        func framesDue(at time: Double) -> Int {
            guard time >= start else { return 0 }
            // A frame is due at its own time even when the sum falls a hair short of it.
            return Int(((time - start) * framesPerSecond + 1e-9).rounded(.down)) + 1
        }

        /// Whether every loop has been shown by `time`.
        func hasEnded(at time: Double) -> Bool {
            loops > 0 && framesDue(at: time) > loops * frameCount
        }
    }

    /// The animations, in drawing order.
    public private(set) var entries: [Entry] = []

    /// No animation.
    public init() {}

    /// Adds `entry` above those of its z already playing (replacing one of the same id).
    public mutating func add(_ entry: Entry) {
        entries.removeAll { $0.id == entry.id }
        let index = entries.firstIndex { $0.z > entry.z } ?? entries.endIndex
        entries.insert(entry, at: index)
    }

    /// Removes the animation `id`; returns whether it was playing.
    @discardableResult
    public mutating func remove(id: Int) -> Bool {
        let before = entries.count
        entries.removeAll { $0.id == id }
        return entries.count != before
    }

    /// The frame of each animation shown at `time`, bottom first: those started and not ended.
    public func frames(at time: Double) -> [(id: Int, frame: Int)] {
        entries.compactMap { entry in
            let due = entry.framesDue(at: time)
            guard due > 0, !entry.hasEnded(at: time) else { return nil }
            return (entry.id, (due - 1) % entry.frameCount)
        }
    }

    /// Removes the animations that have ended by `time` and returns them.
    public mutating func removeEnded(at time: Double) -> [Entry] {
        let ended = entries.filter { $0.hasEnded(at: time) }
        entries.removeAll { $0.hasEnded(at: time) }
        return ended
    }
}
