import Foundation
import ReelCore

/// Receives one H.264 or H.265 RTP video stream described by an SDP and hands out its
/// access units: transport → SRTP (when keyed) → RTP/RTCP parsing → jitter buffer →
/// depacketizer → access units, on one thread of its own; RTCP receiver reports go back
/// when the transport has a way back.
///
/// ```swift
/// let receiver = try RTPReceiver(configuration: .init(description: try SessionDescription(parsing: sdp)))
/// try await receiver.start { unit in recorder.write(unit) }
/// ...
/// let statistics = await receiver.stop()
/// ```
public final class RTPReceiver: @unchecked Sendable {
    /// What to receive and how.
    public struct Configuration: Sendable {
        /// The stream: codec, address, port, payload type, parameter sets, keys.
        public var description: SessionDescription
        /// Where packets come from; by default UDP at the SDP's address and port.
        public var transport: RTPTransportKind
        /// How long a packet behind a gap waits for the missing ones (0 to 2 s); also
        /// bounds how long datagrams are gathered before they are handled (a quarter of it).
        public var latency: Double = Self.defaultLatency
        /// 200 ms, as GStreamer's `rtpjitterbuffer` by default.
        public static let defaultLatency = 0.2
        /// Packets the jitter buffer holds at most; past it the oldest gap is given up.
        public var maxPackets = 4096
        /// Drop access units until an intact keyframe, at the start and after damage.
        public var waitForKeyframe = true
        /// SRTP keys given directly; otherwise the SDP's first `a=crypto`.
        public var crypto: SDPCrypto?
        /// Seconds between receiver reports (RFC 3550 suggests 5 at least for large sessions).
        public var receiverReportInterval: Double = 5

        /// - Parameters:
        ///   - description: the stream, from its SDP.
        ///   - transport: where packets come from; UDP at the SDP's address and port by default.
        public init(description: SessionDescription, transport: RTPTransportKind? = nil) {
            self.description = description
            self.transport = transport ?? .udp(address: description.address, port: description.port)
        }
    }

    /// Datagrams waiting for the receiving thread, at most this many (a stalled consumer
    /// loses the newest, counted).
    static let inboxLimit = 65_536
    /// Datagrams are handled in batches: the thread wakes when the first of a batch
    /// arrives, then waits `batchInterval` or for `batchSize` more (one wake per packet
    /// costs more than the packet itself at 20 Mbit/s). The wait is a quarter of the
    /// latency asked for, at most this long, so a low-latency receiver batches less.
    static let longestBatchInterval = 0.05
    static let batchSize = 64
    /// A polled transport's datagrams handled before the next read, at most (about).
    static let mostPerRead = 1024
    let batchInterval: Double

    /// How this receiver was set up.
    public let configuration: Configuration
    let transport: any RTPTransport
    /// The transport, when the receiving thread reads it itself.
    private let polled: (any PolledRTPTransport)?
    private let lock = ConditionLock()
    // Guarded by `lock`.
    private var inbox: [(datagram: ReceivedDatagram, arrival: Double)] = []
    private var stopping = false
    /// The receiving thread is done (or was never started).
    private let finished = CompletionSignal()
    private var shared = RTPReceiverStatistics()
    private var endError: Error?
    private var overflowed = 0
    private var batchStartedAt: Double?
    // Owned by the receiving thread.
    private var jitter: JitterBuffer
    private var depacketizer: RTPVideoDepacketizer
    private let srtp: SRTPSession?
    private var counts = RTPReceiverStatistics()
    private var lastSenderReport: (middle: UInt32, at: Double)?
    /// The sender's wall clock from its last report: access units get their capture time.
    private var senderClock: SenderClock?
    private var previousReport = (expected: 0, received: 0)
    private let ssrc = UInt32.random(in: 1...UInt32.max)
    private let startedAt = monotonicSeconds()

    /// Prepares the transport and, for SRTP, the keys; nothing is received before
    /// ``start(_:)`` or ``accessUnits()``. Throws for an invalid configuration or key.
    public convenience init(configuration: Configuration) throws {
        try self.init(configuration: configuration, transport: RTPTransports.make(configuration.transport))
    }

    /// A receiver reading `transport` (an RTSP connection's interleaved packets), which
    /// stands for `configuration.transport` in what it reports.
    init(configuration: Configuration, transport: any RTPTransport) throws {
        self.configuration = configuration
        jitter = JitterBuffer(configuration: try .init(latency: configuration.latency, maxPackets: configuration.maxPackets,
                                                       clockRate: configuration.description.clockRate))
        depacketizer = try RTPVideoDepacketizer(description: configuration.description, options: .init(waitForKeyframe: configuration.waitForKeyframe))
        srtp = try (configuration.crypto ?? configuration.description.crypto.first).map { try SRTPSession(crypto: $0) }
        self.transport = transport
        polled = transport as? any PolledRTPTransport
        batchInterval = min(Self.longestBatchInterval, configuration.latency / 4)
    }

    /// Starts receiving; `handler` gets each access unit on the receiving thread, in order.
    public func start(_ handler: @escaping @Sendable (AccessUnit) -> Void) async throws {
        do {
            try await transport.start(deliver: { [self] datagram in enqueue(datagram) }, closed: { [self] error in end(error) })
        } catch {
            // No thread to wait for: `stop()` after this returns at once.
            lock.withLock { stopping = true }
            finished.signal()
            throw RTPError("cannot receive from \(configuration.transport.label): \(error)")
        }
        // Packets a pushing transport delivers before the thread runs wait in the inbox.
        let thread = Thread { [self] in run(handler) }
        thread.name = "reel.rtp.receive"
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    /// Starts receiving, with the access units as an asynchronous sequence (instead of a
    /// handler) that finishes when the receiver stops. Cancelling the task that iterates it
    /// stops the receiver.
    public func accessUnits() async throws -> AsyncStream<AccessUnit> {
        let (stream, continuation) = AsyncStream.makeStream(of: AccessUnit.self, bufferingPolicy: .bufferingNewest(1024))
        continuation.onTermination = { [weak self] termination in
            if case .cancelled = termination { self?.end(nil) }
        }
        try await start { continuation.yield($0) }
        finished.whenDone { continuation.finish() }
        return stream
    }

    /// Stops receiving, releases what the jitter buffer holds and returns the final counts.
    @discardableResult
    public func stop() async -> RTPReceiverStatistics {
        end(nil)
        await finished.wait()
        await transport.stop()
        return statistics
    }

    /// Waits until the transport ends on its own (TCP or HTTP end of stream) or `stop()`;
    /// returns early, with the receiver still running, when the waiting task is cancelled.
    public func waitUntilFinished() async {
        await finished.waitCancellably()
    }

    /// Why the stream ended, if it ended with an error.
    public var error: Error? { lock.withLock { endError } }
    /// Whether the receiver has stopped: asked to, or its transport ended.
    public var isFinished: Bool { finished.isDone }
    /// What it has counted so far.
    public var statistics: RTPReceiverStatistics { lock.withLock { shared } }

    // MARK: Arrival (transport threads)

    private func enqueue(_ datagram: ReceivedDatagram) {
        let now = monotonicSeconds()
        lock.withLock {
            guard !stopping else { return }
            if inbox.count < Self.inboxLimit { inbox.append((datagram, now)) } else { overflowed += 1 }
            if inbox.count == 1 {
                batchStartedAt = now
                lock.broadcast()
            } else if inbox.count == Self.batchSize {
                lock.broadcast()
            }
        }
    }

    func end(_ error: Error?) {
        lock.withLock {
            if endError == nil { endError = error }
            stopping = true
            lock.broadcast()
        }
        polled?.interrupt()
    }

    func blockUntilFinished() { finished.block() }

    // MARK: The receiving thread

    private func run(_ handler: @escaping @Sendable (AccessUnit) -> Void) {
        var batch: [(datagram: ReceivedDatagram, arrival: Double)] = []
        var units: [AccessUnit] = []
        var nextReport = monotonicSeconds() + configuration.receiverReportInterval
        var lastReadAt: Double?
        while true {
            let wake = min(jitter.nextDeadline ?? .infinity, nextReport)
            let stop = if let polled {
                waitAndRead(polled, until: wake, lastReadAt: &lastReadAt, into: &batch)
            } else {
                waitForInbox(until: wake, into: &batch)
            }
            let now = monotonicSeconds()
            for (datagram, arrival) in batch { receive(datagram, at: arrival) }
            batch.removeAll(keepingCapacity: true)
            depacketize(stop ? jitter.flush() : jitter.pop(now: now), into: &units)
            if stop { depacketizer.finish(into: &units) }
            deliver(&units, to: handler)
            if now >= nextReport {
                sendReceiverReport(at: now)
                nextReport = now + configuration.receiverReportInterval
            }
            publish(now: now)
            if stop { break }
        }
        finished.signal()
    }

    /// Waits for a batch the transport pushed; whether to stop.
    private func waitForInbox(until wake: Double, into batch: inout [(datagram: ReceivedDatagram, arrival: Double)]) -> Bool {
        lock.withLock {
            while !stopping && inbox.count < Self.batchSize {
                var wake = wake
                if let batchStartedAt, !inbox.isEmpty { wake = min(wake, batchStartedAt + batchInterval) }
                let now = monotonicSeconds()
                if wake <= now { break }
                lock.wait(seconds: min(wake - now, 0.5))
            }
            swap(&batch, &inbox)
            return stopping
        }
    }

    /// Reads what a polled transport holds: after a read that found datagrams, sleeps a
    /// batch interval (so the next read finds several), not at all after a full read;
    /// otherwise sleeps until one arrives.
    private func waitAndRead(_ transport: any PolledRTPTransport, until wake: Double, lastReadAt: inout Double?,
                             into batch: inout [(datagram: ReceivedDatagram, arrival: Double)]) -> Bool {
        if let last = lastReadAt {
            transport.wait(until: min(wake, last + batchInterval), forDatagrams: false)
        } else {
            transport.wait(until: wake, forDatagrams: true)
        }
        let stop = lock.withLock { stopping }
        let count = transport.read(limit: Self.mostPerRead, into: &batch)
        lastReadAt = count >= Self.mostPerRead ? -.infinity : count > 0 ? monotonicSeconds() : nil
        return stop
    }

    private func receive(_ datagram: ReceivedDatagram, at now: Double) {
        counts.bytesReceived += datagram.bytes.count
        let bytes = datagram.bytes
        // RFC 5761: on a shared port, RTCP's packet types 200–204 sit where RTP's payload type is.
        let isControl = datagram.onControlPort || (bytes.count >= 2 && (192...223).contains(bytes[1]))
        var plain = bytes
        if let srtp {
            switch srtp.unprotect(bytes, isRTCP: isControl) {
            case .success(let decrypted): plain = decrypted
            case .failure(.replayed):
                counts.replayedPackets += 1
                return
            case .failure:
                counts.authenticationFailures += 1
                return
            }
        }
        if isControl {
            receiveControl(plain, at: now)
            return
        }
        guard let packet = try? RTPPacket(bytes: plain), packet.payloadType == configuration.description.payloadType else {
            counts.malformedPackets += 1
            return
        }
        jitter.insert(packet, arrival: now)
    }

    private func receiveControl(_ bytes: [UInt8], at now: Double) {
        guard let packets = try? RTCPPacket.parseCompound(bytes) else {
            counts.malformedPackets += 1
            return
        }
        counts.rtcpPackets += 1
        for packet in packets {
            switch packet {
            case .senderReport(_, let ntp, let rtpTimestamp, _, _, _):
                counts.senderReports += 1
                lastSenderReport = (NTPTimestamp(value: ntp).middle32, now)
                senderClock = SenderClock(ntpTimestamp: NTPTimestamp(value: ntp), rtpTimestamp: rtpTimestamp,
                                          clockRate: configuration.description.clockRate)
            case .bye:
                counts.byes += 1
            default:
                break
            }
        }
    }

    private func depacketize(_ outputs: [JitterBuffer.Output], into units: inout [AccessUnit]) {
        for output in outputs { depacketizer.push(output, into: &units) }
    }

    private func deliver(_ units: inout [AccessUnit], to handler: (AccessUnit) -> Void) {
        for var unit in units {
            unit.captureTime = senderClock?.unixSeconds(ofRTPTimestamp: UInt32(truncatingIfNeeded: unit.timestamp))
            counts.accessUnits += 1
            if unit.isKeyframe { counts.keyframes += 1 }
            if unit.isCorrupted { counts.corruptedAccessUnits += 1 }
            handler(unit)
        }
        units.removeAll(keepingCapacity: true)
    }

    private func publish(now: Double) {
        counts.packets = jitter.statistics
        counts.malformedPayloads = depacketizer.malformedPayloads
        counts.skippedAccessUnits = depacketizer.assembler.skipped
        counts.seconds = now - startedAt
        let snapshot = counts
        lock.withLock {
            shared = snapshot
            shared.droppedWhileBusy = overflowed + (polled?.droppedDatagrams ?? 0)
        }
    }

    /// RFC 3550 6.4.2 with one report block, and the CNAME (A.3 for the fraction lost).
    private func sendReceiverReport(at now: Double) {
        guard let source = jitter.ssrc else { return }
        let statistics = jitter.statistics
        let expected = statistics.expected - previousReport.expected
        let received = statistics.received - previousReport.received
        previousReport = (statistics.expected, statistics.received)
        let lostInInterval = expected - received
        let fraction = expected <= 0 || lostInInterval <= 0 ? 0 : UInt8(min(255, (lostInInterval << 8) / expected))
        let block = RTCPReportBlock(
            ssrc: source, fractionLost: fraction, cumulativeLost: Int32(clamping: statistics.expected - statistics.received),
            extendedHighestSequence: jitter.extendedHighestSequence, jitter: UInt32(statistics.jitter.rounded()),
            lastSenderReport: lastSenderReport?.middle ?? 0,
            delaySinceLastSenderReport: lastSenderReport.map { UInt32(min(Double(UInt32.max), (now - $0.at) * 65536)) } ?? 0)
        let host = ProcessInfo.processInfo.hostName
        transport.sendControl(RTCPPacket.receiverReport(ssrc: ssrc, reports: [block], cname: "reel@\(host)"))
        counts.receiverReportsSent += 1
    }
}

extension RTPTransportKind {
    /// Where packets come from, for messages.
    public var label: String {
        switch self {
        case .udp(let address, let port): "udp://\(address.contains(":") ? "[\(address)]" : address):\(port)"
        case .udpHello(let server, let port, _, _, _, _): "udp (hello) \(server):\(port)"
        case .tcp(let host, let port): "tcp://\(host):\(port)"
        case .httpProgressive(let url): url
        }
    }
}
