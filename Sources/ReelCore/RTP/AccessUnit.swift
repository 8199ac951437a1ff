/// One picture's NAL units out of an RTP stream, in decoding order.
public struct AccessUnit: Sendable {
    /// The NAL units, headers included, without start codes.
    public var units: [[UInt8]]
    /// The RTP timestamp, unwrapped to 64 bits: the presentation time in clock-rate ticks.
    public var timestamp: Int64
    /// It holds an IDR (H.264) or IRAP (H.265) picture.
    public var isKeyframe: Bool
    /// Packets of it were lost or damaged: decoding it may show errors.
    public var isCorrupted: Bool
    /// When the sender captured it, as a Unix time on the sender's clock: known once an RTCP
    /// sender report has mapped its RTP timestamps to its wall clock (``SenderClock``).
    public var captureTime: Double?
    /// The sender restarted before it (a new SSRC, or a sequence number jump it confirmed):
    /// its timestamp starts a new timeline (``ContinuousTimeline`` joins them).
    public var followsRestart: Bool

    /// An access unit; `timestamp` is the extended RTP timestamp.
    public init(units: [[UInt8]], timestamp: Int64, isKeyframe: Bool, isCorrupted: Bool, captureTime: Double? = nil, followsRestart: Bool = false) {
        self.units = units
        self.timestamp = timestamp
        self.isKeyframe = isKeyframe
        self.isCorrupted = isCorrupted
        self.captureTime = captureTime
        self.followsRestart = followsRestart
    }

    /// Every unit behind a 4-byte start code.
    public var annexB: [UInt8] { AnnexB.stream(of: units) }
    /// Every unit behind its 4-byte big-endian length, as MP4 stores samples.
    public var lengthPrefixed: [UInt8] { AnnexB.lengthPrefixed(units) }
}
