/// What a receiver counted, in RFC 3550's terms. `lost` is packets expected (from the
/// extended sequence numbers) less packets received, so a packet that arrives late still
/// counts as received, as in a receiver report.
public struct RTPReceptionStatistics: Sendable, Equatable, Codable {
    /// Distinct packets that arrived, late ones included.
    public var received = 0
    public var expected = 0
    public var lost: Int { max(0, expected - received) }
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
    public var jitterSeconds: Double = 0
    /// Payload bytes of the distinct packets.
    public var bytes = 0

    public init() {}

    enum CodingKeys: String, CodingKey {
        case received, expected, lost, duplicate, late, reordered, invalid, skipped, resets, jitter, jitterSeconds, bytes
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(received, forKey: .received)
        try container.encode(expected, forKey: .expected)
        try container.encode(lost, forKey: .lost)
        try container.encode(duplicate, forKey: .duplicate)
        try container.encode(late, forKey: .late)
        try container.encode(reordered, forKey: .reordered)
        try container.encode(invalid, forKey: .invalid)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(resets, forKey: .resets)
        try container.encode(jitter, forKey: .jitter)
        try container.encode(jitterSeconds, forKey: .jitterSeconds)
        try container.encode(bytes, forKey: .bytes)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        received = try container.decode(Int.self, forKey: .received)
        expected = try container.decode(Int.self, forKey: .expected)
        duplicate = try container.decode(Int.self, forKey: .duplicate)
        late = try container.decode(Int.self, forKey: .late)
        reordered = try container.decode(Int.self, forKey: .reordered)
        invalid = try container.decode(Int.self, forKey: .invalid)
        skipped = try container.decode(Int.self, forKey: .skipped)
        resets = try container.decode(Int.self, forKey: .resets)
        jitter = try container.decode(Double.self, forKey: .jitter)
        jitterSeconds = try container.decode(Double.self, forKey: .jitterSeconds)
        bytes = try container.decode(Int.self, forKey: .bytes)
    }
}
