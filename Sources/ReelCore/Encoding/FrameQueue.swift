/// The frames waiting for an encoder, with orders between them (flushes, rate changes)
/// that are never dropped. At most `depth` frames wait; a new frame beyond that is
/// handled by the ``FrameDropPolicy``, so the producer never waits. A dropped frame that
/// asked for a keyframe passes the request on to the next frame kept.
package struct FrameQueue<Frame, Order> {
    package enum Item {
        case frame(Frame, forceKeyframe: Bool)
        case order(Order)
    }

    package let depth: Int
    package let policy: FrameDropPolicy
    private var items: [Item] = []
    private var head = 0
    private var pendingKeyframe = false
    package private(set) var waitingFrames = 0
    package private(set) var dropped = 0

    package init(depth: Int, policy: FrameDropPolicy) {
        precondition(depth >= 1)
        self.depth = depth
        self.policy = policy
    }

    package var isEmpty: Bool { head == items.count }

    /// Adds a frame; false when the new frame itself was dropped.
    @discardableResult
    package mutating func push(_ frame: Frame, forceKeyframe: Bool) -> Bool {
        if waitingFrames >= depth {
            dropped += 1
            switch policy {
            case .dropNewest:
                pendingKeyframe = pendingKeyframe || forceKeyframe
                return false
            case .dropOldest:
                removeOldestFrame()
            }
        }
        items.append(.frame(frame, forceKeyframe: forceKeyframe || pendingKeyframe))
        pendingKeyframe = false
        waitingFrames += 1
        return true
    }

    package mutating func push(order: Order) { items.append(.order(order)) }

    package mutating func pop() -> Item? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head > 64, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        if case .frame = item { waitingFrames -= 1 }
        return item
    }

    private mutating func removeOldestFrame() {
        guard let index = items[head...].firstIndex(where: { if case .frame = $0 { return true } else { return false } }),
              case .frame(_, let forced) = items[index] else { return }
        items.remove(at: index)
        waitingFrames -= 1
        guard forced else { return }
        // The request moves to the next waiting frame, or to the frame being pushed.
        if let next = items[index...].firstIndex(where: { if case .frame = $0 { return true } else { return false } }),
           case .frame(let frame, _) = items[next] {
            items[next] = .frame(frame, forceKeyframe: true)
        } else {
            pendingKeyframe = true
        }
    }
}
