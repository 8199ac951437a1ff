import Foundation
import Testing
@testable import ReelCore

private struct Item: QueueCost {
    var id: Int
    var queueBytes: Int = 100
    var queueSeconds: Double = 0.04
}

@Suite struct BlockingQueueTests {
    @Test func blocksWhenFullByCountBytesOrDuration() {
        for limits in [BlockingQueue<Item>.Limits(count: 2), .init(bytes: 200), .init(seconds: 0.08)] {
            let queue = BlockingQueue<Item>(limits: limits)
            #expect(queue.put(Item(id: 1), timeout: 0.01))
            #expect(queue.put(Item(id: 2), timeout: 0.01))
            #expect(!queue.put(Item(id: 3), timeout: 0.05), "\(limits) should be full")
            #expect(queue.take()?.element.id == 1)
            #expect(queue.put(Item(id: 3), timeout: 0.01))
            #expect(queue.count == 2 && queue.byteCount == 200)
        }
    }

    @Test func anOversizedElementStillFitsAnEmptyQueue() {
        let queue = BlockingQueue<Item>(limits: .init(bytes: 10))
        #expect(queue.put(Item(id: 1, queueBytes: 1000), timeout: 0.01))
    }

    @Test func flushDropsWhatIsQueuedAndStaleWork() {
        let queue = BlockingQueue<Item>(limits: .init())
        queue.put(Item(id: 1), serial: 0)
        let serial = queue.flush()
        #expect(serial == 1 && queue.count == 0 && queue.duration == 0)
        #expect(!queue.put(Item(id: 2), serial: 0), "work of the old serial is refused")
        #expect(queue.put(Item(id: 3), serial: 1))
        #expect(queue.take()?.serial == 1)
        #expect(queue.flush(serial: 7) == 7)
    }

    @Test func aConsumerRemovesWhatItPeekedNotWhatAFlushPutThere() {
        let queue = BlockingQueue<Item>(limits: .init())
        queue.put(Item(id: 1), serial: 0)
        let peeked = queue.peek()
        queue.flush(serial: 1)
        queue.put(Item(id: 2), serial: 1)
        #expect(queue.take(ifSerial: peeked?.serial ?? -1) == nil, "the head is of the new timeline")
        #expect(queue.count == 1)
        #expect(queue.take(ifSerial: 1)?.element.id == 2)
        #expect(queue.take(ifSerial: 1) == nil, "empty: nothing to take, no wait")
    }

    @Test func aLiveJumpDropsWhatPrecedesTheLastStartOnTheSameTimeline() {
        let queue = BlockingQueue<Item>(limits: .init(count: 6))
        for id in 1...6 { queue.put(Item(id: id), serial: 0) }
        #expect(queue.dropBefore { $0.id == 99 } == nil && queue.count == 6, "no start: nothing dropped")
        #expect(queue.dropBefore { $0.id % 2 == 0 && $0.id < 6 }?.id == 4, "the last start the test accepts")
        #expect(queue.count == 3 && queue.byteCount == 300 && abs(queue.duration - 0.12) < 1e-9)
        #expect(queue.put(Item(id: 7), serial: 0, timeout: 0.01), "room again, on the same timeline")
        queue.removeAll { $0.id == 5 }
        #expect(queue.count == 3 && queue.byteCount == 300)
        #expect([queue.take(), queue.take(), queue.take()].map { $0?.element.id } == [4, 6, 7])
        #expect(queue.duration == 0)
    }

    @Test func takeTimesOutAndAbortWakesWaiters() {
        let queue = BlockingQueue<Item>(limits: .init(count: 1))
        let start = monotonicSeconds()
        #expect(queue.take(timeout: 0.05) == nil)
        #expect(monotonicSeconds() - start >= 0.045)
        queue.put(Item(id: 1))
        let woke = DispatchSemaphore(value: 0)
        Thread {
            _ = queue.put(Item(id: 2))   // blocks: the queue is full
            woke.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.05)
        queue.abort()
        #expect(woke.wait(timeout: .now() + 2) == .success)
        #expect(queue.take(timeout: 0) == nil)
        queue.restart()
        #expect(queue.put(Item(id: 4), timeout: 0.01))
    }

    @Test func peekLooksAheadAndWaitingWakesOnPut() {
        let queue = BlockingQueue<Item>(limits: .init())
        #expect(!queue.waitForElement(timeout: 0.02))
        Thread {
            Thread.sleep(forTimeInterval: 0.02)
            queue.put(Item(id: 1))
            queue.put(Item(id: 2))
        }.start()
        #expect(queue.waitForElement(timeout: 2))
        Thread.sleep(forTimeInterval: 0.02)
        #expect(queue.peek()?.element.id == 1)
        #expect(queue.peek(1)?.element.id == 2)
        #expect(queue.peek(2) == nil)
        #expect(queue.count == 2)
    }

    @Test func manyProducersAndConsumersLoseNothing() {
        let queue = BlockingQueue<Item>(limits: .init(count: 4))
        let received = LockedCounter()
        let group = DispatchGroup()
        for producer in 0..<4 {
            group.enter()
            Thread { for index in 0..<250 { queue.put(Item(id: producer * 1000 + index)) }; group.leave() }.start()
        }
        for _ in 0..<2 {
            Thread { while queue.take(timeout: 1) != nil { received.add() } }.start()
        }
        group.wait()
        for _ in 0..<200 where received.value < 1000 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(received.value == 1000)
    }
}

private final class LockedCounter: @unchecked Sendable {
    private let lock = ConditionLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

@Suite struct MediaClockTests {
    @Test func runsFromWhereItWasSet() {
        var clock = MediaClock()
        #expect(clock.time(at: 10, currentSerial: 0) == nil)
        clock.set(5, serial: 0, at: 100)
        #expect(clock.time(at: 100.5, currentSerial: 0) == 5.5)
        #expect(clock.time(at: 100.5, currentSerial: 1) == nil, "a clock of an older serial is unknown")
    }

    @Test func speedAndPause() {
        var clock = MediaClock()
        clock.set(0, serial: 0, at: 0)
        clock.setSpeed(2, at: 1)
        #expect(clock.time(at: 2, currentSerial: 0) == 3)
        clock.set(clock.time(at: 3, currentSerial: 0)!, serial: 0, at: 3)
        clock.isPaused = true
        #expect(clock.time(at: 10, currentSerial: 0) == 5)
    }

    @Test func followsAnotherClockThatDriftedTooFar() {
        var audio = MediaClock(), external = MediaClock()
        audio.set(20, serial: 0, at: 0)
        external.set(5, serial: 0, at: 0)
        external.follow(audio, at: 1)
        #expect(external.time(at: 1, currentSerial: 0) == 21)
        external.set(20.5, serial: 0, at: 1)
        external.follow(audio, at: 1)
        #expect(external.time(at: 1, currentSerial: 0) == 20.5, "within the threshold it keeps its own time")
    }
}

@Suite struct SyncPolicyTests {
    @Test func followsFFplaysComputeTargetDelay() {
        let frame = 0.04
        #expect(SyncPolicy.targetDelay(nominal: frame, drift: nil) == frame)
        #expect(SyncPolicy.targetDelay(nominal: frame, drift: 0.002) == frame, "clock noise is left alone")
        #expect(abs(SyncPolicy.targetDelay(nominal: frame, drift: 0.01) - (frame + 0.001)) < 1e-12, "inside the threshold: a tenth")
        #expect(abs(SyncPolicy.targetDelay(nominal: frame, drift: -0.03) - (frame - 0.003)) < 1e-12)
        #expect(SyncPolicy.targetDelay(nominal: frame, drift: -0.1) == 0, "video late: show now")
        #expect(abs(SyncPolicy.targetDelay(nominal: frame, drift: -0.02 - frame) - 0) < 1e-12)
        #expect(SyncPolicy.targetDelay(nominal: frame, drift: 0.05) == 2 * frame, "video early: wait a frame more")
        #expect(SyncPolicy.targetDelay(nominal: 0.2, drift: 0.15) == 0.35, "long frames are stretched by the drift")
        #expect(SyncPolicy.targetDelay(nominal: frame, drift: 20) == frame, "unrelated clocks are not corrected")
    }

    @Test func dropsOnlyWhenAnotherClockLeads() {
        #expect(SyncPolicy.shouldDrop(frameEnd: 1, now: 2, isVideoMaster: false))
        #expect(!SyncPolicy.shouldDrop(frameEnd: 1, now: 2, isVideoMaster: true))
        #expect(!SyncPolicy.shouldDrop(frameEnd: 3, now: 2, isVideoMaster: false))
    }
}

@Suite struct PlayerStateMachineTests {
    @Test func allowsTheMovesOfAPlayerAndNoOthers() {
        #expect(PlayerState.idle.canMove(to: .opening))
        #expect(PlayerState.opening.canMove(to: .ready))
        #expect(PlayerState.ready.canMove(to: .playing))
        #expect(PlayerState.playing.canMove(to: .buffering))
        #expect(PlayerState.buffering.canMove(to: .playing))
        #expect(PlayerState.playing.canMove(to: .ended))
        #expect(PlayerState.ended.canMove(to: .playing))
        #expect(!PlayerState.idle.canMove(to: .playing))
        #expect(!PlayerState.opening.canMove(to: .playing))
        #expect(!PlayerState.failed.canMove(to: .playing))
        #expect(PlayerState.playing.canMove(to: .reconnecting) && PlayerState.reconnecting.canMove(to: .ready))
        #expect(!PlayerState.reconnecting.canMove(to: .playing) && !PlayerState.idle.canMove(to: .reconnecting))
        for state in PlayerState.allCases {
            #expect(state.canMove(to: .idle) && state.canMove(to: .failed))
        }
    }
}
