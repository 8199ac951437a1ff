/// Puts received RTP packets back in sending order. A packet that follows the last one
/// released goes out at once; a packet behind a gap waits until its deadline (arrival +
/// latency), and when any held packet's deadline passes, the packets missing before it
/// are given up as lost. A bound on held packets gives up gaps early under a flood.
/// Duplicates and packets whose place was already given up are dropped and counted.
///
/// Time is passed in by the caller (seconds on any monotonic clock), so tests drive it.
public struct JitterBuffer: Sendable {
    /// How long packets wait and how many are held.
    public struct Configuration: Sendable, Equatable {
        /// How long a packet behind a gap waits for the missing ones: 0 to 2 s.
        public var latency: Double
        /// Packets held at most; past it the oldest gap is given up.
        public var maxPackets: Int
        /// The RTP clock, ticks per second (90 kHz for video).
        public var clockRate: Int

        /// A configuration, checked: latency 0–2 s, 1–65,536 packets, a positive clock rate.
        public init(latency: Double = 0.2, maxPackets: Int = 4096, clockRate: Int = 90000) throws(RTPError) {
            guard (0...2).contains(latency) else { throw RTPError("the jitter buffer latency must be 0 to 2000 ms, got \(Int(latency * 1000)) ms") }
            guard (1...65536).contains(maxPackets) else { throw RTPError("the jitter buffer holds 1 to 65536 packets, got \(maxPackets)") }
            guard clockRate > 0 else { throw RTPError("the clock rate must be positive") }
            self.latency = latency
            self.maxPackets = maxPackets
            self.clockRate = clockRate
        }
    }

    /// What comes out, in order.
    public enum Output: Sendable {
        /// The next packet, with its extended sequence number and its unwrapped timestamp.
        case packet(RTPPacket, sequence: Int64, timestamp: Int64)
        /// This many packets will never come (before the next packet out).
        case lost(Int)
        /// The sender restarted (new SSRC or sequence reset): start over, as after a loss.
        case discontinuity
    }

    private struct Slot {
        var sequence: Int64 = -1
        var packet: RTPPacket?
        var arrival: Double = 0
    }

    /// How it was made.
    public let configuration: Configuration
    /// Packets received, lost, late, duplicated, and the jitter.
    public private(set) var statistics = RTPReceptionStatistics()
    /// The source being received.
    public private(set) var ssrc: UInt32?
    /// The highest sequence number received, extended as in a receiver report (the first
    /// cycle is 0).
    public var extendedHighestSequence: UInt32 { UInt32(truncatingIfNeeded: max(0, highestSequence - 65536)) }

    private var slots: [Slot]
    private let mask: Int
    private var tracker = RTPSequenceTracker()
    private var candidate: (ssrc: UInt32, tracker: RTPSequenceTracker, packet: RTPPacket?, arrival: Double)?
    private var probationPacket: (packet: RTPPacket, arrival: Double)?
    private var jumpPacket: (packet: RTPPacket, arrival: Double)?
    private var nextSequence: Int64?
    private var highestSequence: Int64 = 0
    private var held = 0
    private var epochBase: Int64 = 0
    private var expectedInEarlierEpochs = 0
    private var timestamps = RTPTimestampUnwrapper()
    private var lastTransit: (arrival: Int64, timestamp: UInt32)?
    /// Output decided outside `pop`, such as what a restart flushed.
    private var pending: [Output] = []

    /// An empty buffer.
    public init(configuration: Configuration) {
        self.configuration = configuration
        var capacity = 1
        while capacity < 2 * configuration.maxPackets { capacity <<= 1 }
        slots = Array(repeating: Slot(), count: capacity)
        mask = capacity - 1
    }

    /// Takes a packet that arrived at `arrival` seconds.
    public mutating func insert(_ packet: RTPPacket, arrival: Double) {
        if let ssrc, packet.ssrc != ssrc {
            considerNewSource(packet, arrival: arrival)
            return
        }
        ssrc = packet.ssrc
        switch tracker.update(packet.sequenceNumber) {
        case .probation:
            probationPacket = (packet, arrival)
        case .bad:
            // Kept until the next packet says whether the sender jumped (then it is the
            // first of the new numbering, as GStreamer's jitter buffer keeps its gap packets).
            statistics.invalid += 1
            jumpPacket = (packet, arrival)
        case .reset(let sequence):
            let first = jumpPacket.flatMap { $0.packet.sequenceNumber == packet.sequenceNumber &- 1 ? $0 : nil }
            jumpPacket = nil
            startEpoch(at: first == nil ? sequence : sequence - 1)
            if let first {
                statistics.invalid -= 1
                place(first.packet, sequence: sequence - 1, arrival: first.arrival)
            }
            place(packet, sequence: sequence, arrival: arrival)
        case .accepted(let sequence):
            jumpPacket = nil
            if nextSequence == nil {
                var first = sequence
                if let held = probationPacket, held.packet.sequenceNumber == packet.sequenceNumber &- 1 { first = sequence - 1 }
                startEpoch(at: first)
                if first < sequence, let held = probationPacket { place(held.packet, sequence: first, arrival: held.arrival) }
            }
            probationPacket = nil
            place(packet, sequence: sequence, arrival: arrival)
        }
    }

    /// Everything that may leave at `now`, in order.
    public mutating func pop(now: Double) -> [Output] {
        var out = pending
        pending = []
        guard var next = nextSequence else { return out }
        while held > 0 {
            let index = Int(truncatingIfNeeded: next) & mask
            if slots[index].sequence == next, let packet = slots[index].packet {
                release(packet, at: index, into: &out)
                next += 1
                continue
            }
            // A gap: give it up when the oldest held packet's deadline has passed or the buffer is full.
            guard held > configuration.maxPackets || highestSequence - next >= Int64(slots.count / 2)
                    || oldestArrival(from: next) + configuration.latency <= now else { break }
            let resume = lowestHeld(from: next)
            let missing = Int(resume - next)
            statistics.skipped += missing
            out.append(.lost(missing))
            next = resume
        }
        nextSequence = next
        return out
    }

    /// Releases everything held (the stream ended), gaps reported as losses.
    public mutating func flush() -> [Output] {
        pop(now: .infinity)
    }

    /// When a held packet's deadline passes, if one is held.
    public var nextDeadline: Double? {
        guard held > 0, let next = nextSequence else { return nil }
        return oldestArrival(from: next) + configuration.latency
    }

    // MARK: Placing packets

    private mutating func place(_ packet: RTPPacket, sequence: Int64, arrival: Double) {
        guard let next = nextSequence else { return }
        let index = Int(truncatingIfNeeded: sequence) & mask
        if slots[index].sequence == sequence {
            statistics.duplicate += 1
            return
        }
        if sequence < next {
            // Its place was given up, or it is older than the window remembers.
            statistics.received += 1
            statistics.late += 1
            statistics.lost = max(0, statistics.expected - statistics.received)
            return
        }
        if slots[index].packet != nil {
            // Its slot still holds a packet a whole ring behind (the jumps outran the ring
            // between two pops): that one is given up, as a full buffer gives up its oldest
            // (the next pop counts its place among the skipped).
            slots[index].packet = nil
            held -= 1
        }
        statistics.received += 1
        statistics.bytes += packet.payloadRange.count
        if sequence < highestSequence { statistics.reordered += 1 }
        highestSequence = max(highestSequence, sequence)
        statistics.expected = expectedInEarlierEpochs + Int(highestSequence - epochBase + 1)
        statistics.lost = max(0, statistics.expected - statistics.received)
        updateJitter(packet, arrival: arrival)
        slots[index] = Slot(sequence: sequence, packet: packet, arrival: arrival)
        held += 1
    }

    private mutating func release(_ packet: RTPPacket, at index: Int, into out: inout [Output]) {
        slots[index].packet = nil
        held -= 1
        out.append(.packet(packet, sequence: slots[index].sequence, timestamp: timestamps.unwrap(packet.timestamp)))
    }

    private func oldestArrival(from next: Int64) -> Double {
        var oldest = Double.infinity
        var sequence = next
        while sequence <= highestSequence {
            let slot = slots[Int(truncatingIfNeeded: sequence) & mask]
            if slot.sequence == sequence, slot.packet != nil { oldest = min(oldest, slot.arrival) }
            sequence += 1
        }
        return oldest
    }

    private func lowestHeld(from next: Int64) -> Int64 {
        var sequence = next
        while sequence <= highestSequence {
            let slot = slots[Int(truncatingIfNeeded: sequence) & mask]
            if slot.sequence == sequence, slot.packet != nil { return sequence }
            sequence += 1
        }
        return highestSequence + 1
    }

    // MARK: Sources and epochs

    /// A new SSRC takes over once it has passed its own probation (two packets in sequence),
    /// so one stray packet does not tear the stream down.
    private mutating func considerNewSource(_ packet: RTPPacket, arrival: Double) {
        if candidate?.ssrc != packet.ssrc { candidate = (packet.ssrc, RTPSequenceTracker(), nil, arrival) }
        guard var current = candidate else { return }
        switch current.tracker.update(packet.sequenceNumber) {
        case .probation:
            current.packet = packet
            current.arrival = arrival
            candidate = current
        case .bad:
            candidate = current
        case .accepted, .reset:
            let earlier = current.packet.map { ($0, current.arrival) }
            candidate = nil
            if nextSequence != nil { pending = pop(now: .infinity) }
            ssrc = packet.ssrc
            tracker = RTPSequenceTracker()
            nextSequence = nil
            probationPacket = nil
            if let (first, firstArrival) = earlier { insert(first, arrival: firstArrival) }
            insert(packet, arrival: arrival)
        }
    }

    /// Starts numbering again at `sequence`: packets held from before go out first,
    /// followed by a discontinuity when there was a stream before.
    private mutating func startEpoch(at sequence: Int64) {
        if nextSequence != nil { pending = pop(now: .infinity) }
        if statistics.expected > 0 {
            statistics.resets += 1
            pending.append(.discontinuity)
            expectedInEarlierEpochs = statistics.expected
        }
        slots = Array(repeating: Slot(), count: slots.count)
        held = 0
        nextSequence = sequence
        epochBase = sequence
        highestSequence = sequence - 1
        timestamps = RTPTimestampUnwrapper()
        lastTransit = nil
    }

    // MARK: Jitter

    /// RFC 3550 A.8: J += (|D| − J) / 16, D the change in transit time between packets.
    private mutating func updateJitter(_ packet: RTPPacket, arrival: Double) {
        let arrivalTicks = Int64((arrival * Double(configuration.clockRate)).rounded())
        if let last = lastTransit {
            let difference = (arrivalTicks - last.arrival) - Int64(Int32(bitPattern: packet.timestamp &- last.timestamp))
            statistics.jitter += (Double(abs(difference)) - statistics.jitter) / 16
            statistics.jitterSeconds = statistics.jitter / Double(configuration.clockRate)
        }
        lastTransit = (arrivalTicks, packet.timestamp)
    }
}
