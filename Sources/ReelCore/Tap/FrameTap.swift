/// Hands the frames a player presents to other consumers (picture-in-picture, encoders,
/// pipes to other programs), each in the pixel format it asks for, without ever making
/// the player wait: every subscriber has its own bounded mailbox and queue, and a slow
/// one loses its oldest frames and is told how many (``SampleBuffer/droppedBefore``,
/// ``FrameTapSubscription/droppedFrames``).
public final class FrameTap: @unchecked Sendable {
    /// Converts a frame Reel cannot wrap itself (any other FFmpeg layout) into `format`.
    package typealias FallbackConverter = @Sendable (VideoFrame, PixelBufferFormat) throws -> PixelBuffer

    private let lock = ConditionLock()
    private var subscriptions: [FrameTapSubscription] = []
    private var nextIndex = 0
    private var discontinuityPending = true
    private let fallback: FallbackConverter?

    package init(fallbackConverter: FallbackConverter? = nil) {
        fallback = fallbackConverter
    }

    /// Whether any subscription is active.
    public var hasSubscribers: Bool { lock.withLock { !subscriptions.isEmpty } }

    /// Subscribes with an `AsyncStream` (``FrameTapSubscription/samples``) holding at most
    /// `bufferLimit` samples the consumer has not taken yet.
    ///
    /// - Parameters:
    ///   - format: the pixel format to deliver; `nil` delivers the decoder's own layout
    ///     without a copy where Reel can wrap it (I420 otherwise).
    ///   - bufferLimit: samples waiting for the consumer, at most; older ones are dropped.
    public func subscribe(format: PixelBufferFormat? = nil, bufferLimit: Int = 4) -> FrameTapSubscription {
        add(FrameTapSubscription(tap: self, format: format, bufferLimit: bufferLimit, every: 1, handler: nil))
    }

    /// Subscribes with a callback, called in order on a queue of the subscription's own;
    /// while it runs, at most `bufferLimit` newer frames wait and older ones are dropped.
    ///
    /// - Parameters:
    ///   - format: the pixel format to deliver, as for the stream.
    ///   - bufferLimit: frames waiting while the handler runs, at most.
    ///   - every: take only every `every`-th presented frame (by index).
    ///   - handler: called with each sample.
    public func subscribe(format: PixelBufferFormat? = nil, bufferLimit: Int = 2, every: Int = 1,
                          handler: @escaping @Sendable (SampleBuffer) -> Void) -> FrameTapSubscription {
        add(FrameTapSubscription(tap: self, format: format, bufferLimit: bufferLimit, every: every, handler: handler))
    }

    /// Called by a player for each frame it presents, on its display thread; returns at
    /// once, or, `waiting` (a player without a clock, which has no time to keep), once each
    /// subscriber has room for it, so that none is dropped.
    package func deliver(_ frame: VideoFrame, waiting: Bool = false) {
        let (targets, index, discontinuity) = lock.withLock { () -> ([FrameTapSubscription], Int, Bool) in
            defer {
                nextIndex += 1
                discontinuityPending = false
            }
            return (subscriptions, nextIndex, discontinuityPending)
        }
        guard !targets.isEmpty else { return }
        var attachments: SampleAttachments = [.displayImmediately]
        if frame.isKeyframe { attachments.insert(.keyframe) }
        if discontinuity { attachments.insert(.discontinuity) }
        for subscription in targets { subscription.enqueue(.init(frame: frame, index: index, attachments: attachments), waiting: waiting) }
    }

    /// The next frame follows a jump in the timeline (a seek, a new input).
    package func markDiscontinuity() {
        lock.withLock { discontinuityPending = true }
    }

    /// Ends every subscription (their streams finish once drained).
    package func finishAll() {
        for subscription in lock.withLock({ subscriptions }) { subscription.cancel() }
    }

    func remove(_ subscription: FrameTapSubscription) {
        lock.withLock { subscriptions.removeAll { $0 === subscription } }
    }

    private func add(_ subscription: FrameTapSubscription) -> FrameTapSubscription {
        lock.withLock { subscriptions.append(subscription) }
        return subscription
    }

    /// The frame as a buffer of `format` (or of its own layout when `nil`).
    func pixelBuffer(for frame: VideoFrame, format: PixelBufferFormat?, pool: PixelBufferPool) throws -> PixelBuffer {
        if let wrapped = try? PixelBuffer(wrapping: frame) {
            guard let format, format != wrapped.format else { return wrapped }
            return try wrapped.converted(to: format, pool: pool)
        }
        guard let fallback else { throw PixelConversionError.unsupportedFormat(frame.pixelFormat.rawValue) }
        return try fallback(frame, format ?? .i420)
    }
}
