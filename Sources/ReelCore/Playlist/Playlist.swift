/// A queue of inputs played in order, with mpv's loops: `--loop-file` plays each item
/// again that many more times, `--loop-playlist` plays the whole list that many times.
///
/// Pure bookkeeping: the player asks what comes after an item ends, fails, or the user
/// moves (`<`, `>`), and opens what it is told.
public struct Playlist: Sendable, Equatable {
    /// What the player does next.
    public enum Step: Sendable, Equatable {
        /// Play the current item again from its start (a loop of the file).
        case replay
        /// Open the item at this index.
        case play(Int)
        /// Nothing is left to play.
        case finish
    }

    /// The inputs, files or URLs.
    public private(set) var items: [String]
    /// The item being played.
    public private(set) var index = 0
    /// How many more times each item plays after its first (mpv's `--loop-file`: 1 plays
    /// it twice).
    public var loopFile: LoopCount
    /// How many times the whole list plays (mpv's `--loop-playlist`: 1 plays it once,
    /// the default). While passes are left, `<` and `>` wrap around its ends.
    public var loopPlaylist: LoopCount
    private var replaysOfItem = 0
    private var passesDone = 0
    /// Items that failed one after another; all of them failing ends a looping list.
    private var failuresInARow = 0

    /// A list of `items`, the first one current. Nil when there are none.
    public init?(_ items: [String], loopFile: LoopCount = .times(0), loopPlaylist: LoopCount = .times(1)) {
        guard !items.isEmpty else { return nil }
        self.items = items
        self.loopFile = loopFile
        self.loopPlaylist = loopPlaylist
    }

    /// The item being played.
    public var current: String { items[index] }

    /// Adds `item` at the end (mpv's `loadfile URL append`).
    public mutating func append(_ item: String) {
        items.append(item)
    }

    /// The current item played to its end.
    public mutating func itemEnded() -> Step {
        failuresInARow = 0
        if loopFile.allowsAnother(after: replaysOfItem) {
            replaysOfItem += 1
            return .replay
        }
        return advance()
    }

    /// The current item could not be played: the next one, never this one again at once.
    public mutating func itemFailed() -> Step {
        failuresInARow += 1
        guard failuresInARow < items.count else { return .finish }
        return advance()
    }

    /// The item `offset` places away (`>` is +1, `<` is −1), or nil past either end of a
    /// list that does not loop (mpv's `playlist-next` and `playlist-prev`).
    public mutating func move(by offset: Int) -> Int? {
        var (target, overflowed) = index.addingReportingOverflow(offset)
        if overflowed || !items.indices.contains(target) {
            guard loopPlaylist.allowsAnother(after: passesDone + 1) else { return nil }
            target = ((index + offset % items.count) % items.count + items.count) % items.count
        }
        select(target)
        return target
    }

    /// Makes the item at `index` current; false when there is none.
    @discardableResult
    public mutating func select(_ index: Int) -> Bool {
        guard items.indices.contains(index) else { return false }
        self.index = index
        replaysOfItem = 0
        return true
    }

    private mutating func advance() -> Step {
        replaysOfItem = 0
        if index + 1 < items.count {
            index += 1
            return .play(index)
        }
        passesDone += 1
        guard loopPlaylist.allowsAnother(after: passesDone) else { return .finish }
        index = 0
        return .play(0)
    }
}
