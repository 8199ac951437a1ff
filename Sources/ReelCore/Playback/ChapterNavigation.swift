/// Chapter arithmetic for a player, as mpv does it: which chapter holds a position, and
/// where "previous" and "next" go.
public struct ChapterNavigation: Sendable {
    /// The chapters, sorted by start.
    public let chapters: [Chapter]

    /// Within this many seconds of a chapter's start, "previous" goes to the chapter before
    /// it; further in, to its own start (mpv's `chapter-seek-threshold`).
    public static let restartThreshold = 5.0

    /// Navigation over `chapters`, in any order.
    public init(_ chapters: [Chapter]) {
        self.chapters = chapters.sorted { $0.startTime < $1.startTime }
    }

    /// The index of the chapter that holds `position` seconds: the last one starting at or
    /// before it; nil before the first.
    public func index(at position: Double) -> Int? {
        chapters.lastIndex { $0.startTime <= position + Self.tolerance }
    }

    /// Where a step of `steps` chapters (−1 previous, +1 next) from `position` lands: a
    /// chapter's index, or nil when the step leaves the chapters (past the last: the end;
    /// before the first: the start of the input).
    public func target(from position: Double, steps: Int) -> Int? {
        guard !chapters.isEmpty, steps != 0 else { return index(at: position) }
        let current = index(at: position)
        var target: Int
        if steps < 0 {
            guard let current else { return nil }
            // Well into a chapter, the first step back goes to its start.
            let restarts = position - chapters[current].startTime > Self.restartThreshold
            target = current + steps + (restarts ? 1 : 0)
        } else {
            target = (current ?? -1) + steps
        }
        guard target < chapters.count else { return nil }
        target = max(target, 0)
        return target
    }

    /// Timestamps a frame ahead or behind land on the same chapter.
    static let tolerance = 0.001
}
