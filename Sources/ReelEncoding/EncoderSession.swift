import Foundation
import ReelCore
import ReelFFmpeg

/// A real-time video encoder shaped after VideoToolbox's VTCompressionSession, over
/// libavcodec's libx264 and libx265.
///
/// Set ``properties``, call ``prepare()``, then hand frames to
/// ``encode(_:presentationTime:forceKeyframe:)-(VideoFrame,_,_)`` from the producer's thread: it never
/// blocks, the encoding runs on the session's own thread, and when that thread falls
/// behind frames are dropped by `EncoderProperties/dropPolicy` and counted. Encoded
/// samples arrive on ``samples`` (and on the optional output handler) in decode order.
public final class EncoderSession: @unchecked Sendable {
    private enum Order {
        case complete(done: @Sendable () -> Void)
        /// Finish the frames inside the encoder; the next frame opens it with the current properties.
        case restart
        case stop
    }

    private struct Pending {
        var frame: VideoFrame
        var presentationTime: MediaTime
    }

    /// H.264 or H.265.
    public let codec: VideoCodec
    /// The width of the pictures it takes, in pixels.
    public let width: Int
    /// Their height.
    public let height: Int
    /// Encoded samples in decode order; finishes after ``invalidate()`` or a failure.
    public let samples: AsyncStream<EncodedSample>
    /// Timestamps of the samples count in 1/90000 s, the RTP video clock.
    public static let timescale: Int32 = 90_000

    private let continuation: AsyncStream<EncodedSample>.Continuation
    private let lock = ConditionLock()
    private var storedProperties: EncoderProperties
    private var queue: FrameQueue<Pending, Order>
    private var statisticsSoFar = EncoderStatistics()
    private var prepared = false
    private var invalidated = false
    private var failure: EncoderError?
    private var outputHandler: (@Sendable (EncodedSample) -> Void)?
    private let worker = ConditionLock()
    private var workerFinished = false

    /// - Throws: `EncoderError` for a size a 4:2:0 encoder cannot take.
    public init(codec: VideoCodec, width: Int, height: Int, properties: EncoderProperties = EncoderProperties()) throws {
        try properties.validate(codec: codec, width: width, height: height)
        self.codec = codec
        self.width = width
        self.height = height
        storedProperties = properties
        queue = FrameQueue(depth: properties.queueDepth, policy: properties.dropPolicy)
        (samples, continuation) = AsyncStream.makeStream(of: EncodedSample.self, bufferingPolicy: .unbounded)
    }

    /// The settings. Before ``prepare()`` any of them can change; afterwards only the
    /// average bit rate and data-rate limits (``changeBitRate(_:dataRateLimits:)``).
    public var properties: EncoderProperties {
        get { lock.withLock { storedProperties } }
    }

    /// Replaces the settings before the session is prepared.
    public func setProperties(_ properties: EncoderProperties) throws {
        try properties.validate(codec: codec, width: width, height: height)
        try lock.withLock {
            guard !prepared, !invalidated else { throw EncoderError(.invalidState, "properties other than the bit rate are set before prepare()") }
            storedProperties = properties
            queue = FrameQueue(depth: properties.queueDepth, policy: properties.dropPolicy)
        }
    }

    /// Also called with each sample, on the session's thread, before it goes to ``samples``.
    public func setOutputHandler(_ handler: @escaping @Sendable (EncodedSample) -> Void) {
        lock.withLock { outputHandler = handler }
    }

    /// Frames in, dropped and out, keyframes and bytes so far.
    public var statistics: EncoderStatistics { lock.withLock { statisticsSoFar } }

    /// The codec, size and parameter sets, known once ``prepare()`` returns.
    public var formatDescription: VideoFormatDescription? { lock.withLock { preparedDescription } }
    private var preparedDescription: VideoFormatDescription?

    /// Opens the encoder with the properties and starts the session's thread.
    public func prepare() throws {
        let properties = try lock.withLock {
            guard !invalidated else { throw EncoderError(.invalidState, "the session was invalidated") }
            guard !prepared else { throw EncoderError(.invalidState, "prepare() was already called") }
            return storedProperties
        }
        let encoder = try VideoEncoder(codec: codec, width: width, height: height, timeBase: Rational(1, Int(Self.timescale)), properties: properties)
        let description = try VideoFormatDescription(codec: codec, width: width, height: height, parameterSets: encoder.parameterSets)
        lock.withLock {
            prepared = true
            preparedDescription = description
        }
        // Handed over to the session's thread, which alone uses it from now on.
        nonisolated(unsafe) let handedOver = encoder
        BlockingThread.start(name: "reel.encoder") { [self] in run(handedOver, description) }
    }

    /// Queues a frame shown at `presentationTime`; returns false when the frame was
    /// dropped because the encoder is behind (the policy chose the new frame).
    /// - Throws: `EncoderError` for a frame of another size, before ``prepare()``, after
    ///   ``invalidate()`` or after the encoder failed.
    @discardableResult
    public func encode(_ frame: VideoFrame, presentationTime: MediaTime, forceKeyframe: Bool = false) throws -> Bool {
        guard frame.width == width, frame.height == height else {
            throw EncoderError(.invalidFrame, "a \(frame.width)x\(frame.height) frame given to a \(width)x\(height) session")
        }
        return try lock.withLock {
            try checkUsable()
            statisticsSoFar.framesIn += 1
            let kept = queue.push(Pending(frame: frame, presentationTime: presentationTime), forceKeyframe: forceKeyframe)
            statisticsSoFar.framesDropped = queue.dropped
            lock.broadcast()
            return kept
        }
    }

    /// Queues a picture; see ``encode(_:presentationTime:forceKeyframe:)``.
    @discardableResult
    public func encode(_ picture: PixelBuffer, presentationTime: MediaTime, forceKeyframe: Bool = false) throws -> Bool {
        try encode(picture.videoFrame(), presentationTime: presentationTime, forceKeyframe: forceKeyframe)
    }

    /// For sources that can wait (files, not cameras): blocks until the queue has room, so
    /// that no frame is dropped. Returns at once after ``invalidate()`` or a failure.
    public func waitForQueueSpace() {
        lock.withLock {
            while queue.waitingFrames >= queue.depth, failure == nil, !invalidated { lock.wait(seconds: 0.1) }
        }
    }

    /// Changes the average bit rate (and the limits) from the next frame on. Neither
    /// libx264 nor libx265 changes an average bit rate while open (x264 only moves its VBV
    /// cap), so the session finishes the frames it holds and restarts the encoder: the
    /// next frame is a keyframe, and decode times stay increasing across the restart.
    public func changeBitRate(_ bitsPerSecond: Int, dataRateLimits: [EncoderProperties.DataRateLimit]? = nil) throws {
        try lock.withLock {
            var changed = storedProperties
            changed.averageBitRate = bitsPerSecond
            if let dataRateLimits { changed.dataRateLimits = dataRateLimits }
            try changed.validate(codec: codec, width: width, height: height)
            storedProperties = changed
            if prepared {
                try checkUsable()
                queue.push(order: .restart)
                lock.broadcast()
            }
        }
    }

    /// Returns once every frame with a presentation time up to `until` (all when nil) has
    /// come out as a sample. Frames are encoded in the order given, so the session
    /// completes every frame queued before the call, whatever `until` says; the encoder is
    /// emptied to do so, and the next frame starts with a keyframe.
    ///
    /// Cancelling the calling task makes this throw `CancellationError` at once; the
    /// session still completes the frames, and their samples still come out.
    public func complete(until: MediaTime? = nil) async throws {
        let outcome = await waitCancellably { (done: @escaping @Sendable (EncoderError?) -> Void) in
            complete(until: until, handler: done)
        }
        guard let outcome else { throw CancellationError() }
        if let error = outcome { throw error }
    }

    /// ``complete(until:)`` for callers outside Swift concurrency: `handler` is called on the
    /// session's thread (or at once, with the error, when the session cannot take orders).
    public func complete(until: MediaTime? = nil, handler: @escaping @Sendable (EncoderError?) -> Void) {
        do {
            try lock.withLock {
                try checkUsable()
                queue.push(order: .complete(done: { [self] in handler(lock.withLock { failure }) }))
                lock.broadcast()
            }
        } catch {
            handler(error as? EncoderError ?? EncoderError(.invalidState, "\(error)"))
        }
    }

    /// Stops the session: frames still waiting are discarded, ``samples`` finishes. Waits
    /// for the session's thread, so no sample is delivered after it returns.
    public func invalidate() {
        let wasRunning = lock.withLock {
            guard !invalidated else { return false }
            invalidated = true
            queue.push(order: .stop)
            lock.broadcast()
            return prepared
        }
        if wasRunning {
            worker.withLock { while !workerFinished { worker.wait() } }
        }
        continuation.finish()
    }

    deinit { continuation.finish() }

    private func checkUsable() throws {
        if let failure { throw failure }
        guard prepared else { throw EncoderError(.invalidState, "call prepare() before encoding") }
        guard !invalidated else { throw EncoderError(.invalidState, "the session was invalidated") }
    }

    // MARK: The session's thread

    private func run(_ firstEncoder: VideoEncoder, _ firstDescription: VideoFormatDescription) {
        var encoder: VideoEncoder? = firstEncoder
        var description = firstDescription
        var lastDecodeTicks = Int64.min
        defer {
            worker.withLock { workerFinished = true; worker.broadcast() }
        }
        func emit(_ packets: [EncodedPacket]) {
            for packet in packets {
                let units = AnnexB.units(in: packet.annexB).filter { !codec.isParameterSet(nalType: codec.nalType($0[$0.startIndex])) }
                // A restarted encoder starts its decode times before its first pts (reordering
                // delay), which can be before the last sample's: nudge them forward by ticks.
                let decodeTicks = max(packet.dts, lastDecodeTicks == .min ? packet.dts : lastDecodeTicks + 1)
                lastDecodeTicks = decodeTicks
                let sample = EncodedSample(data: AnnexB.lengthPrefixed(units), isKeyframe: packet.isKeyframe,
                                           presentationTime: MediaTime(value: packet.pts, timescale: Self.timescale),
                                           decodeTime: MediaTime(value: min(decodeTicks, packet.pts), timescale: Self.timescale),
                                           formatDescription: description)
                let handler = lock.withLock {
                    statisticsSoFar.samplesOut += 1
                    statisticsSoFar.bytesOut += sample.data.count
                    if sample.isKeyframe { statisticsSoFar.keyframesOut += 1 }
                    return outputHandler
                }
                handler?(sample)
                continuation.yield(sample)
            }
        }
        func fail(_ error: Error) {
            let typed = error as? EncoderError ?? EncoderError(.encoderFailed, "\(error)")
            lock.withLock { failure = typed }
            continuation.finish()
        }
        while true {
            let item: FrameQueue<Pending, Order>.Item = lock.withLock {
                while queue.isEmpty { lock.wait() }
                defer { lock.broadcast() }
                return queue.pop()!
            }
            do {
                switch item {
                case .frame(let pending, let forceKeyframe):
                    if encoder == nil {
                        let reopened = try VideoEncoder(codec: codec, width: width, height: height, timeBase: Rational(1, Int(Self.timescale)),
                                                        properties: lock.withLock { storedProperties })
                        description = try VideoFormatDescription(codec: codec, width: width, height: height, parameterSets: reopened.parameterSets)
                        encoder = reopened
                    }
                    emit(try encoder!.encode(pending.frame, pts: pending.presentationTime.converted(to: Self.timescale).value, forceKeyframe: forceKeyframe))
                case .order(.complete(let done)):
                    if let current = encoder { emit(try current.flush()) }
                    encoder = nil
                    done()
                case .order(.restart):
                    if let current = encoder { emit(try current.flush()) }
                    encoder = nil
                case .order(.stop):
                    lock.withLock {
                        while let left = queue.pop() { if case .order(.complete(let done)) = left { done() } }
                    }
                    return
                }
            } catch {
                fail(error)
                lock.withLock {
                    while let left = queue.pop() { if case .order(.complete(let done)) = left { done() } }
                }
                if case .order(.complete(let done)) = item { done() }
                // Wait for invalidate(), discarding anything queued meanwhile (encode() now throws).
                lock.withLock { while !invalidated { lock.wait(seconds: 0.1) } }
                return
            }
        }
    }
}
