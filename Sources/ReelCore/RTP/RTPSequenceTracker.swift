/// RTP sequence number validation as RFC 3550 A.1 gives it: a source is valid after
/// `minSequential` packets in sequence (probation); a jump beyond `maxDropout` or back
/// beyond `maxMisorder` is a bad packet unless the next one follows it, which means the
/// sender restarted (a reset). Every accepted packet gets a 64-bit extended sequence number
/// that keeps counting across 16-bit wraps, also for packets that arrive late across one.
public struct RTPSequenceTracker: Sendable {
    /// The largest forward jump taken as loss rather than a restart (RFC 3550 A.1's `MAX_DROPOUT`).
    public static let maxDropout = 3000
    /// The largest backward jump taken as a late packet (`MAX_MISORDER`).
    public static let maxMisorder = 100
    /// Packets in sequence before a new source is valid (`MIN_SEQUENTIAL`).
    public static let minSequential = 2
    private static let modulus = 1 << 16
    /// Numbering starts one cycle up so that packets just before the first accepted one,
    /// across a wrap, still get positive numbers.
    private static let firstCycle = Int64(modulus)

    /// What a packet's sequence number means.
    public enum Verdict: Sendable, Equatable {
        /// Part of the stream, with its extended number.
        case accepted(Int64)
        /// The source is still on probation; the packet may be kept until it is decided.
        case probation
        /// The sender restarted its numbering at this packet: earlier state no longer applies.
        case reset(Int64)
        /// A jump too large to believe yet; the next packet decides.
        case bad
    }

    private var probation = minSequential
    private var maxSequence: UInt16 = 0
    private var cycles: Int64 = 0
    private var badSequence = modulus + 1
    private var started = false

    /// A tracker that has seen nothing yet.
    public init() {}

    /// The highest extended sequence number accepted so far.
    public var extendedMaximum: Int64 { cycles + Int64(maxSequence) }

    /// Takes the next packet's sequence number and says what it is.
    public mutating func update(_ sequence: UInt16) -> Verdict {
        guard started else {
            started = true
            maxSequence = sequence
            probation = Self.minSequential - 1
            cycles = Self.firstCycle
            return probation == 0 ? .accepted(extendedMaximum) : .probation
        }
        let delta = Int(sequence &- maxSequence)
        if probation > 0 {
            if sequence == maxSequence &+ 1 {
                probation -= 1
                maxSequence = sequence
                if probation == 0 { return .accepted(extendedMaximum) }
            } else {
                probation = Self.minSequential - 1
                maxSequence = sequence
            }
            return .probation
        }
        if delta < Self.maxDropout {
            if sequence < maxSequence { cycles += Int64(Self.modulus) }
            maxSequence = sequence
            return .accepted(extendedMaximum)
        }
        if delta <= Self.modulus - Self.maxMisorder {
            if Int(sequence) == badSequence {
                // Two packets in sequence after a jump: the sender restarted.
                maxSequence = sequence
                cycles = Self.firstCycle
                badSequence = Self.modulus + 1
                return .reset(extendedMaximum)
            }
            badSequence = (Int(sequence) + 1) & (Self.modulus - 1)
            return .bad
        }
        // Duplicate or reordered: within maxMisorder behind the maximum.
        let behind = Int64(Self.modulus - delta)
        return .accepted(extendedMaximum - behind)
    }
}
