import Foundation
import ReelCore

/// A UDP relay between a sender and the receiver that impairs the stream as one
/// ``Impairment`` says, from a seed, and keeps the ground truth of what it did: the
/// packets it never passed on, the copies it added, the garbage it slipped in, and, from
/// the order and times it sent packets at, the reordering and RFC 3550 jitter a receiver
/// should count. Only packets in the impaired window are touched: after the first
/// `untouchedFirst` (the receiver's probation) and before `impairedSeconds`, so the
/// stream's tail is clean and the receiver can see every loss.
final class ImpairmentRelay: @unchecked Sendable {
    /// Two-state Markov loss (Gilbert–Elliott): every packet is lost in the bad state and
    /// none in the good one; each packet moves good → bad with `enterBad`, bad → good with `leaveBad`.
    struct GilbertElliott: Sendable {
        var enterBad: Double
        var leaveBad: Double
    }

    enum Impairment: Sendable, CustomStringConvertible {
        /// Each packet lost independently with this probability.
        case loss(Double)
        /// Losses in bursts.
        case burst(GilbertElliott)
        /// Every 10th packet held back and sent after this many later ones.
        case reorder(depth: Int)
        /// Each packet sent twice with this probability (the copy a few packets later).
        case duplicate(Double)
        /// Each packet delayed by a uniform 0 … this many seconds (which also reorders).
        case jitter(Double)
        /// The sender restarts at packet `restartAt`: a new SSRC, sequence and timestamp base.
        case ssrcChange
        /// Sequence numbers jump by this much at packet `restartAt` (beyond RFC 3550's
        /// MAX_DROPOUT, so it is a restart, not a loss).
        case sequenceJump(UInt16)
        /// RTP timestamps jump by this much (two's complement: backwards when negative) at
        /// the first packet of a picture after `restartAt`.
        case timestampJump(Int32)
        /// After each packet, with this probability, a datagram that is not RTP of the
        /// stream's payload type.
        case garbage(Double)
        /// Loss (10 %, and a burst of 12), 5 % duplicates, 20 ms of delay, together.
        case mixed

        var description: String {
            switch self {
            case .loss(let p): "loss \(Int(p * 100)) %"
            case .burst(let model): "burst loss (Gilbert-Elliott p=\(model.enterBad) r=\(model.leaveBad))"
            case .reorder(let depth): "reorder depth \(depth)"
            case .duplicate(let p): "duplicates \(Int(p * 100)) %"
            case .jitter(let seconds): "jitter \(Int(seconds * 1000)) ms"
            case .ssrcChange: "SSRC change"
            case .sequenceJump(let by): "sequence jump +\(by)"
            case .timestampJump(let by): "timestamp jump \(by > 0 ? "+" : "")\(by)"
            case .garbage(let p): "garbage \(Int(p * 100)) %"
            case .mixed: "loss, burst, duplicates and delay"
            }
        }

        /// Whether it rewrites headers from `restartAt` on.
        var restarts: Bool {
            switch self {
            case .ssrcChange, .sequenceJump: true
            default: false
            }
        }
    }

    /// What the relay did, and what a receiver should therefore count.
    struct Truth: Sendable {
        /// Sequence numbers (as sent) never passed on.
        var dropped: Set<UInt16> = []
        /// Extra copies sent.
        var duplicated = 0
        /// Garbage datagrams sent.
        var garbage = 0
        /// Packets sent after one with a higher sequence number of the same numbering.
        var reordered = 0
        /// RFC 3550 A.8 jitter from the times the relay sent packets at, in seconds.
        var jitterSeconds = 0.0
        /// Sender restarts made (new SSRC or a sequence jump).
        var restarts = 0
        /// The RTP timestamps (as sent by the sender) of pictures that lost a packet or
        /// were cut by a restart.
        var damagedTimestamps: Set<UInt32> = []
        /// Pictures' RTP timestamps (as sent by the sender), in the order they came.
        var timestamps: [UInt32] = []
    }

    let input: UDPSocket
    private let output: UDPSocket
    private let destination: sockaddr_in
    private let impairment: Impairment
    private let untouchedFirst: Int
    private let impairedSeconds: Double
    private let restartAt: Int
    private let seed: UInt64
    private let lock = NSLock()
    /// Datagrams to send, with when and in which order they were queued.
    private var pending: [(at: Double, order: Int, bytes: [UInt8], isGarbage: Bool)] = []
    private var queued = 0
    private var running = true
    private var truth = Truth()
    private let threads = DispatchGroup()

    init(to port: Int, impairment: Impairment, untouchedFirst: Int = 20, impairedSeconds: Double = 1.6, restartAt: Int = 150,
         seed: UInt64 = 7) throws {
        input = try UDPSocket()
        output = try UDPSocket()
        destination = UDPSocket.loopback(port: port)
        self.impairment = impairment
        self.untouchedFirst = untouchedFirst
        self.impairedSeconds = impairedSeconds
        self.restartAt = restartAt
        self.seed = seed
        threads.enter()
        Thread { [self] in
            receiveLoop()
            threads.leave()
        }.start()
        threads.enter()
        Thread { [self] in
            sendLoop()
            threads.leave()
        }.start()
    }

    /// Stops relaying (once everything queued is sent) and returns the truth.
    func stop() -> Truth {
        lock.withLock { running = false }
        threads.wait()
        return lock.withLock { truth }
    }

    // MARK: Receiving and deciding

    private func receiveLoop() {
        var random = SeededGenerator(seed: seed)
        var count = 0
        var start: Double?
        var inBadState = false
        var heldBack: [(bytes: [UInt8], releaseAfter: Int)] = []
        var rewrite = HeaderRewrite()
        var lastTimestamp: UInt32?
        while lock.withLock({ running }) {
            guard let datagram = input.receive(timeout: 0.1) else { continue }
            var bytes = datagram.bytes
            guard let packet = try? RTPPacket(bytes: bytes) else { continue }
            let now = monotonicSeconds()
            start = start ?? now
            count += 1
            let sequence = packet.sequenceNumber, timestamp = packet.timestamp
            let newPicture = timestamp != lastTimestamp
            lastTimestamp = timestamp
            let impaired = count > untouchedFirst && now - start! < impairedSeconds
            lock.withLock {
                if newPicture { truth.timestamps.append(timestamp) }
                if count >= restartAt {
                    rewrite.begin(impairment, atPictureStart: newPicture, random: &random, truth: &truth, timestamp: timestamp)
                }
                rewrite.apply(to: &bytes, of: packet)
                var delay = 0.0
                var copies = 1
                var holdBack = false
                switch impairment {
                case .loss(let probability) where impaired:
                    if Double.random(in: 0..<1, using: &random) < probability { copies = 0 }
                case .burst(let model) where impaired:
                    inBadState = Double.random(in: 0..<1, using: &random) < (inBadState ? 1 - model.leaveBad : model.enterBad)
                    if inBadState { copies = 0 }
                case .reorder where impaired && count % 10 == 0:
                    holdBack = true
                case .duplicate(let probability) where impaired:
                    if Double.random(in: 0..<1, using: &random) < probability { copies = 2 }
                case .jitter(let seconds) where impaired:
                    delay = Double.random(in: 0...seconds, using: &random)
                case .mixed where impaired:
                    let inBurst = count > 120 && count <= 132
                    if inBurst || Double.random(in: 0..<1, using: &random) < 0.1 { copies = 0 }
                    delay = Double.random(in: 0...0.02, using: &random)
                    if copies == 1 && Double.random(in: 0..<1, using: &random) < 0.05 { copies = 2 }
                default:
                    break
                }
                if case .reorder(let depth) = impairment, holdBack {
                    heldBack.append((bytes, count + depth))
                    copies = 0
                } else if copies == 0 {
                    truth.dropped.insert(sequence)
                    truth.damagedTimestamps.insert(timestamp)
                }
                if copies >= 1 { enqueue(bytes, at: now + delay) }
                if copies == 2 {
                    truth.duplicated += 1
                    // The copy comes a little later, as a network's retransmission does.
                    enqueue(bytes, at: now + delay + Double.random(in: 0.001...0.02, using: &random))
                }
                while let first = heldBack.first, first.releaseAfter <= count {
                    enqueue(first.bytes, at: now)
                    heldBack.removeFirst()
                }
                if case .garbage(let probability) = impairment, impaired, Double.random(in: 0..<1, using: &random) < probability {
                    truth.garbage += 1
                    enqueue(Self.garbage(using: &random), at: now, isGarbage: true)
                }
            }
        }
        lock.withLock { for held in heldBack { enqueue(held.bytes, at: monotonicSeconds()) } }
    }

    /// Bytes no receiver of the stream may take as its RTP: short ones, other RTP versions,
    /// another payload type, and what looks like RTCP but does not parse.
    private static func garbage(using random: inout SeededGenerator) -> [UInt8] {
        var bytes = (0..<Int.random(in: 0...1400, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        guard bytes.count >= 2 else { return bytes }
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes[0] &= 0x3F                               // version 0
        case 1: bytes[0] = 0x80; bytes[1] = 0x80 | 33            // version 2, payload type 33 (MPEG-TS)
        default: bytes[0] = 0x40 | bytes[0] & 0x3F; bytes[1] = 200 // RTCP's place, version 1
        }
        return bytes
    }

    /// Called with the lock held.
    private func enqueue(_ bytes: [UInt8], at time: Double, isGarbage: Bool = false) {
        pending.append((time, queued, bytes, isGarbage))
        queued += 1
    }

    // MARK: Sending, and the truth the order and times give

    private func sendLoop() {
        var tally = SendTally()
        while true {
            let now = monotonicSeconds()
            let (due, stop) = lock.withLock { () -> ([(bytes: [UInt8], isGarbage: Bool)], Bool) in
                let ready = pending.filter { $0.at <= now }.sorted { ($0.at, $0.order) < ($1.at, $1.order) }
                pending.removeAll { $0.at <= now }
                return (ready.map { ($0.bytes, $0.isGarbage) }, !running && pending.isEmpty)
            }
            for datagram in due {
                output.send(datagram.bytes, to: destination)
                if !datagram.isGarbage { tally.sent(datagram.bytes, at: monotonicSeconds()) }
            }
            if stop {
                lock.withLock {
                    truth.reordered = tally.reordered
                    truth.jitterSeconds = tally.jitter / 90_000
                }
                return
            }
            usleep(500)
        }
    }
}

/// The header changes a restart makes, from the packet it starts at on.
private struct HeaderRewrite {
    var ssrc: UInt32?
    var sequenceOffset: UInt16 = 0
    var timestampOffset: UInt32 = 0
    var started = false

    mutating func begin(_ impairment: ImpairmentRelay.Impairment, atPictureStart: Bool, random: inout SeededGenerator,
                        truth: inout ImpairmentRelay.Truth, timestamp: UInt32) {
        guard !started else { return }
        switch impairment {
        case .ssrcChange:
            ssrc = UInt32.random(in: 1...UInt32.max, using: &random)
            sequenceOffset = UInt16.random(in: 5000...60000, using: &random)
            timestampOffset = UInt32.random(in: 1...UInt32.max, using: &random)
        case .sequenceJump(let by):
            sequenceOffset = by
        case .timestampJump(let by):
            guard atPictureStart else { return }
            timestampOffset = UInt32(bitPattern: by)
        default:
            return
        }
        started = true
        if impairment.restarts {
            truth.restarts += 1
            // A restart cuts the picture it falls in (unless it falls between two), and the
            // receiver cannot know which: the picture is damaged.
            truth.damagedTimestamps.insert(timestamp)
        }
    }

    /// Rewrites the header fields of `packet`, whose datagram is `bytes`, in place.
    func apply(to bytes: inout [UInt8], of packet: RTPPacket) {
        guard started else { return }
        func store<Field: FixedWidthInteger>(_ value: Field, at offset: Int) {
            withUnsafeBytes(of: value.bigEndian) { bytes.replaceSubrange(offset..<offset + $0.count, with: $0) }
        }
        store(packet.sequenceNumber &+ sequenceOffset, at: 2)
        store(packet.timestamp &+ timestampOffset, at: 4)
        if let ssrc { store(ssrc, at: 8) }
    }
}

/// What a receiver should count from the packets in the order and at the times they
/// were sent: reordering as RFC 3550 receivers see it (a packet after a higher-numbered one
/// of the same source and numbering), and A.8's jitter from the send times. Copies of a
/// packet already sent count for neither, as in a receiver.
private struct SendTally {
    var reordered = 0
    var jitter = 0.0
    private var source: (ssrc: UInt32, highest: Int64)?
    private var seen: Set<Int64> = []
    private var lastTransit: (arrival: Int64, timestamp: UInt32)?

    mutating func sent(_ bytes: [UInt8], at time: Double) {
        guard let packet = try? RTPPacket(bytes: bytes) else { return }
        let sequence = packet.sequenceNumber, timestamp = packet.timestamp, ssrc = packet.ssrc
        // A new source, or a jump past MAX_DROPOUT: numbering and transit start over.
        let delta = source.map { Int64(Int16(bitPattern: sequence &- UInt16(truncatingIfNeeded: $0.highest))) }
        if let current = source, current.ssrc == ssrc, let delta, abs(delta) < RTPSequenceTracker.maxDropout {
            guard seen.insert(current.highest + delta).inserted else { return }
            if delta < 0 { reordered += 1 }
            source = (ssrc, current.highest + max(0, delta))
        } else {
            source = (ssrc, Int64(sequence) + 65_536)
            seen = [Int64(sequence) + 65_536]
            lastTransit = nil
        }
        let arrival = Int64((time * 90_000).rounded())
        if let last = lastTransit {
            let difference = (arrival - last.arrival) - Int64(Int32(bitPattern: timestamp &- last.timestamp))
            jitter += (Double(abs(difference)) - jitter) / 16
        }
        lastTransit = (arrival, timestamp)
    }
}
