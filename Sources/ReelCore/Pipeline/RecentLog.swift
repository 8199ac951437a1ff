/// The last `capacity` entries of a log, oldest first: what a test or a report looks back
/// on, kept from growing without end in a player that runs for days.
package struct RecentLog<Entry> {
    package let capacity: Int
    private var ring: [Entry] = []
    /// Where the oldest entry is once the ring is full.
    private var oldest = 0
    /// Entries ever appended, the ones no longer kept included.
    package private(set) var appendedCount = 0

    package init(capacity: Int) {
        self.capacity = max(capacity, 0)
    }

    package mutating func append(_ entry: Entry) {
        appendedCount += 1
        if ring.count < capacity {
            ring.append(entry)
        } else if capacity > 0 {
            ring[oldest] = entry
            oldest = (oldest + 1) % capacity
        }
    }

    /// The entries kept, oldest first, in an array of their own.
    package var entries: [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(ring.count)
        entries.append(contentsOf: ring[oldest...])
        entries.append(contentsOf: ring[..<oldest])
        return entries
    }

    package var count: Int { ring.count }
}

extension RecentLog: Sendable where Entry: Sendable {}
