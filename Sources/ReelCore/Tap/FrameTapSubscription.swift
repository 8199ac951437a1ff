import Dispatch

/// One consumer of a ``FrameTap``: its mailbox, its queue and its counters.
public final class FrameTapSubscription: @unchecked Sendable {
    struct Item {
        var frame: VideoFrame
        var index: Int
        var attachments: SampleAttachments
    }

    /// The pixel format delivered (`nil`: the decoder's own).
    public let format: PixelBufferFormat?
    /// The samples, for a subscription made without a handler; ends at ``cancel()``.
    public let samples: AsyncStream<SampleBuffer>

    private weak var tap: FrameTap?
    private let every: Int
    private let handler: (@Sendable (SampleBuffer) -> Void)?
    private let continuation: AsyncStream<SampleBuffer>.Continuation
    private let queue = DispatchQueue(label: "reel.frame-tap")
    private let pool = PixelBufferPool(capacity: 4)
    private let lock = ConditionLock()
    private var mailbox: FrameMailbox<Item>
    private var draining = false
    private var delivered = 0
    private var failures = 0
    private var cancelled = false

    init(tap: FrameTap, format: PixelBufferFormat?, bufferLimit: Int, every: Int, handler: (@Sendable (SampleBuffer) -> Void)?) {
        self.tap = tap
        self.every = max(every, 1)
        self.format = format
        self.handler = handler
        mailbox = FrameMailbox(capacity: bufferLimit)
        (samples, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(max(bufferLimit, 1)))
        if handler == nil {
            // A consumer that stops iterating ends the subscription.
            continuation.onTermination = { [weak self] _ in self?.cancel() }
        } else {
            continuation.finish()
        }
    }

    /// Frames this subscriber lost because it was too slow.
    public var droppedFrames: Int { lock.withLock { mailbox.droppedTotal } }
    /// Frames delivered to it.
    public var deliveredFrames: Int { lock.withLock { delivered } }
    /// Frames that could not be converted to ``format``.
    public var failedConversions: Int { lock.withLock { failures } }

    /// Stops delivery; the stream ends.
    public func cancel() {
        let wasActive = lock.withLock { () -> Bool in
            defer { cancelled = true }
            return !cancelled
        }
        guard wasActive else { return }
        tap?.remove(self)
        queue.async { [continuation] in continuation.finish() }
    }

    /// Waits until every frame taken so far has been handled, at most `timeout` seconds
    /// (a consumer may be stuck: a FIFO nobody reads); false when it timed out. Not from
    /// the handler itself.
    @discardableResult
    public func waitUntilIdle(timeout: Double = 5) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + timeout) == .success
    }

    /// Puts `item` in the mailbox; with `waiting`, first waits (up to 5 s) for the consumer
    /// to make room rather than dropping the oldest.
    func enqueue(_ item: Item, waiting: Bool = false) {
        guard item.index % every == 0 else { return }
        let start = lock.withLock { () -> Bool in
            guard !cancelled else { return false }
            let giveUp = monotonicSeconds() + 5
            while waiting, mailbox.isFull, !cancelled, monotonicSeconds() < giveUp { lock.wait(seconds: 0.1) }
            mailbox.put(item)
            defer { draining = true }
            return !draining
        }
        if start { queue.async { [self] in drain() } }
    }

    private func drain() {
        while let (item, droppedBefore) = lock.withLock({ () -> (Item, Int)? in
            guard let next = mailbox.take() else {
                draining = false
                return nil
            }
            // A producer may wait for this room.
            lock.broadcast()
            return next
        }) {
            guard let tap, let sample = makeSample(item, droppedBefore: droppedBefore, tap: tap) else { continue }
            if let handler {
                handler(sample)
                lock.withLock { delivered += 1 }
            } else if case .dropped = continuation.yield(sample) {
                // The stream let go of its oldest sample for this one.
                lock.withLock { mailbox.countDownstreamDrop() }
            } else {
                lock.withLock { delivered += 1 }
            }
        }
    }

    private func makeSample(_ item: Item, droppedBefore: Int, tap: FrameTap) -> SampleBuffer? {
        let frame = item.frame
        guard let buffer = try? tap.pixelBuffer(for: frame, format: format, pool: pool) else {
            lock.withLock { failures += 1 }
            return nil
        }
        var attachments = item.attachments
        if droppedBefore > 0 { attachments.insert(.discontinuity) }
        var sample = SampleBuffer(pixelBuffer: buffer, presentationTime: frame.presentationTime ?? .zero,
                                  duration: frame.duration > 0 ? MediaTime(ticks: frame.duration, timeBase: frame.timeBase) : nil,
                                  attachments: attachments, index: item.index, droppedBefore: droppedBefore)
        sample.orientation = frame.orientation
        return sample
    }
}
