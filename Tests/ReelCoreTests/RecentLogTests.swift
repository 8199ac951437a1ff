import Testing
@testable import ReelCore

@Suite struct RecentLogTests {
    @Test func keepsEverythingUpToItsCapacity() {
        var log = RecentLog<Int>(capacity: 5)
        for value in 0..<3 { log.append(value) }
        #expect(log.entries == [0, 1, 2])
        #expect(log.count == 3)
    }

    @Test func thenKeepsTheNewestInOrder() {
        var log = RecentLog<Int>(capacity: 4)
        for value in 0..<11 { log.append(value) }
        #expect(log.entries == [7, 8, 9, 10])
        #expect(log.count == 4)
        log.append(11)
        #expect(log.entries == [8, 9, 10, 11])
        #expect(log.appendedCount == 12, "the ones no longer kept are counted")
    }

    @Test func aZeroCapacityKeepsNothing() {
        var log = RecentLog<Int>(capacity: 0)
        for value in 0..<3 { log.append(value) }
        #expect(log.entries.isEmpty && log.appendedCount == 3)
    }
}
