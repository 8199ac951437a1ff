/// A bounded queue that never makes its producer wait: when full, the oldest item is
/// dropped and counted, and the count is handed out with the next item taken.
struct FrameMailbox<Item> {
    let capacity: Int
    private var items: [Item] = []
    private var droppedSinceTake = 0
    /// Items dropped since the mailbox was made.
    private(set) var droppedTotal = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    var isEmpty: Bool { items.isEmpty }
    var isFull: Bool { items.count >= capacity }

    mutating func put(_ item: Item) {
        if items.count == capacity {
            items.removeFirst()
            droppedSinceTake += 1
            droppedTotal += 1
        }
        items.append(item)
    }

    /// The oldest item and how many were dropped since the last take.
    mutating func take() -> (item: Item, droppedBefore: Int)? {
        guard !items.isEmpty else { return nil }
        defer { droppedSinceTake = 0 }
        return (items.removeFirst(), droppedSinceTake)
    }

    /// Counts a drop that happened downstream (an AsyncStream buffer overflowing).
    mutating func countDownstreamDrop() {
        droppedSinceTake += 1
        droppedTotal += 1
    }
}
