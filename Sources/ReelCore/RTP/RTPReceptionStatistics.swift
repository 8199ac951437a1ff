/// What a receiver counted, in RFC 3550's terms. `lost` is packets expected (from the
/// extended sequence numbers) less packets received, so a packet that arrives late still
/// counts as received, as in a receiver report.
public struct RTPReceptionStatistics: Sendable, Equatable, Codable {
    /// Distinct packets that arrived, late ones included.
    public var received = 0
    /// Packets the sequence numbers say were sent (RFC 3550 A.3): highest − first + 1.
    public var expected = 0
    /// Expected less received (never negative).
    public var lost = 0
    /// Copies of packets that had already arrived.
    public var duplicate = 0
    /// Packets that arrived after their place was given up (they are dropped).
    public var late = 0
    /// Packets that arrived after one with a higher sequence number.
    public var reordered = 0
    /// Packets rejected by sequence validation (a jump not confirmed by the next packet).
    public var invalid = 0
    /// Packets given up as lost because their deadline passed or the buffer was full.
    public var skipped = 0
    /// Sender restarts: a sequence reset or a new SSRC.
    public var resets = 0
    /// RFC 3550 A.8 interarrival jitter, in timestamp units and in seconds.
    public var jitter: Double = 0
    /// The same jitter in seconds.
    public var jitterSeconds: Double = 0
    /// Payload bytes of the distinct packets.
    public var bytes = 0

    /// No packets yet.
    public init() {}
}
