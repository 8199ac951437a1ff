import Foundation
import ReelFFmpeg

enum Threads {
    /// `body` of each item on a thread of its own, all at once, and their results in the
    /// items' order; throws the first item's error, after all have ended. For blocking runs
    /// against real processes (senders, receivers) that mostly wait: a thread each, not the
    /// cooperative pool's two, and nothing recorded from a thread without the test's context.
    static func runConcurrently<Item: Sendable, Result: Sendable>(_ items: [Item], _ body: @escaping @Sendable (Item) throws -> Result) throws -> [Result] {
        let results = LockedValue<[Int: Swift.Result<Result, any Error>]>([:])
        let group = DispatchGroup()
        for (index, item) in items.enumerated() {
            group.enter()
            Thread {
                let result = Swift.Result { try body(item) }
                results.withLock { $0[index] = result }
                group.leave()
            }.start()
        }
        group.wait()
        let all = results.withLock { $0 }
        return try items.indices.map { try all[$0]!.get() }
    }

    /// `items` two by two (the last alone when their count is odd), for cases a test runs
    /// ``runConcurrently(_:_:)`` a pair at a time.
    static func inPairs<Item>(_ items: [Item]) -> [[Item]] {
        stride(from: 0, to: items.count, by: 2).map { Array(items[$0..<min($0 + 2, items.count)]) }
    }
}
