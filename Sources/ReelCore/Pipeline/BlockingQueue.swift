/// What an element costs a queue: its bytes and its duration in seconds.
package protocol QueueCost {
    var queueBytes: Int { get }
    var queueSeconds: Double { get }
}

/// A bounded first-in first-out queue between media threads, after ffplay's
/// PacketQueue/FrameQueue: producers block while it is full, consumers while it is
/// empty; `flush` empties it and advances the serial (stale work is recognised by
/// its serial); ``abort()`` wakes everyone for good.
package final class BlockingQueue<Element: QueueCost>: @unchecked Sendable {
    package struct Limits: Sendable {
        package var count: Int
        package var bytes: Int
        package var seconds: Double
        package init(count: Int = .max, bytes: Int = .max, seconds: Double = .infinity) {
            self.count = count
            self.bytes = bytes
            self.seconds = seconds
        }
    }

    package let limits: Limits
    private let lock = ConditionLock()
    /// Slots before `head` are emptied as they are taken, so nothing taken stays alive here.
    private var items: [(element: Element, serial: Int)?] = []
    private var head = 0
    private var bytes = 0
    private var seconds = 0.0
    private var aborted = false
    private var currentSerial = 0

    package init(limits: Limits) {
        self.limits = limits
    }

    /// Waits for room (up to `timeout` seconds, for ever when `nil`), then appends.
    /// Returns `false` on timeout, if the queue was aborted, or if
    /// `serial` is given and the queue was flushed to another serial meanwhile (the
    /// element is stale work from before a seek, and is dropped).
    @discardableResult
    package func put(_ element: Element, serial: Int? = nil, timeout: Double? = nil) -> Bool {
        lock.withLock {
            guard waitWhile(timeout: timeout, { isFull }) else { return false }
            guard !aborted, serial == nil || serial == currentSerial else { return false }
            items.append((element, currentSerial))
            bytes += element.queueBytes
            seconds += element.queueSeconds
            lock.broadcast()
            return true
        }
    }

    /// Waits for an element (up to `timeout` seconds, for ever when `nil`) and removes it.
    /// Returns `nil` on timeout or abort.
    package func take(timeout: Double? = nil) -> (element: Element, serial: Int)? {
        lock.withLock {
            guard waitWhile(timeout: timeout, { head == items.count }) else { return nil }
            return removeHead()
        }
    }

    /// Removes the head if it belongs to timeline `serial`, without waiting: a consumer that
    /// peeked it removes it so, and a flush and new elements meanwhile are left alone.
    @discardableResult
    package func take(ifSerial serial: Int) -> (element: Element, serial: Int)? {
        lock.withLock {
            guard head < items.count, items[head]?.serial == serial else { return nil }
            return removeHead()
        }
    }

    /// With the lock held and an element queued.
    private func removeHead() -> (element: Element, serial: Int)? {
        guard !aborted, let item = items[head] else { return nil }
        items[head] = nil
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        bytes -= item.element.queueBytes
        seconds -= item.element.queueSeconds
        if head == items.count { seconds = 0 }
        lock.broadcast()
        return item
    }

    /// The element `offset` places behind the head (0: what `take()` would return),
    /// without removing it.
    package func peek(_ offset: Int = 0) -> (element: Element, serial: Int)? {
        lock.withLock { head + offset < items.count ? items[head + offset] : nil }
    }

    /// Waits up to `timeout` seconds for the queue to hold something; returns whether it does.
    @discardableResult
    package func waitForElement(timeout: Double) -> Bool {
        lock.withLock {
            waitWhile(timeout: timeout, { head == items.count }) && head < items.count
        }
    }

    /// Empties the queue and starts a new serial (`serial`, or the next one); returns it.
    @discardableResult
    package func flush(serial: Int? = nil) -> Int {
        lock.withLock {
            items.removeAll(keepingCapacity: true)
            head = 0
            bytes = 0
            seconds = 0
            currentSerial = serial ?? currentSerial + 1
            lock.broadcast()
            return currentSerial
        }
    }

    /// Removes the queued elements before the last one `isStart` accepts, on the same
    /// timeline (a live player jumping ahead to a keyframe); returns that one, or nil
    /// (and removes nothing) when none is queued.
    @discardableResult
    package func dropBefore(lastWhere isStart: (Element) -> Bool) -> Element? {
        lock.withLock {
            guard let start = items[head...].lastIndex(where: { $0.map { isStart($0.element) } ?? false }) else { return nil }
            for index in head..<start { discount(items[index]) }
            items.removeSubrange(head..<start)
            lock.broadcast()
            return items[head]?.element
        }
    }

    /// Removes the queued elements `shouldDrop` accepts, on the same timeline.
    package func removeAll(where shouldDrop: (Element) -> Bool) {
        lock.withLock {
            let kept = items[head...].filter { item in
                guard let item, shouldDrop(item.element) else { return true }
                discount(item)
                return false
            }
            guard kept.count != items.count - head else { return }
            items.replaceSubrange(head..., with: kept)
            if head == items.count { seconds = 0 }
            lock.broadcast()
        }
    }

    /// With the lock held: takes a removed element off the totals.
    private func discount(_ item: (element: Element, serial: Int)?) {
        guard let item else { return }
        bytes -= item.element.queueBytes
        seconds -= item.element.queueSeconds
    }

    /// Wakes every waiter; from now on `put` and `take` fail at once.
    package func abort() {
        lock.withLock {
            aborted = true
            lock.broadcast()
        }
    }

    /// Lets an aborted queue be used again (empty, with a new serial).
    package func restart() {
        lock.withLock { aborted = false }
        flush()
    }

    package var serial: Int { lock.withLock { currentSerial } }
    package var count: Int { lock.withLock { items.count - head } }
    package var byteCount: Int { lock.withLock { bytes } }
    package var duration: Double { lock.withLock { seconds } }

    /// With the lock held: waits while `condition` holds and the queue is not aborted,
    /// up to `timeout` seconds (for ever when `nil`). Returns `false` on timeout.
    private func waitWhile(timeout: Double?, _ condition: () -> Bool) -> Bool {
        let deadline = timeout.map { monotonicSeconds() + $0 }
        while !aborted && condition() {
            guard let deadline else {
                lock.wait()
                continue
            }
            let left = deadline - monotonicSeconds()
            if left <= 0 { return false }
            lock.wait(seconds: left)
        }
        return true
    }

    private var isFull: Bool {
        let queued = items.count - head
        guard queued > 0 else { return false }
        return queued >= limits.count || bytes >= limits.bytes || seconds >= limits.seconds
    }
}
