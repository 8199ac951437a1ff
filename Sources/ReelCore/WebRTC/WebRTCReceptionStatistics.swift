/// What a WebRTC receiver counted, summed over its session's streams: how many packets it
/// gave up as lost, asked for again (NACK) and got back in time, and how many keyframes it
/// asked for (PLI or FIR) after losses nothing repaired.
public struct WebRTCReceptionStatistics: Sendable, Equatable, Codable {
    /// Packets passed on to the depayloaders, repaired ones included.
    public var packetsPassed = 0
    /// Packets given up as lost: neither they nor a retransmission came in time.
    public var packetsLost = 0
    /// Retransmissions asked for, each retry counted.
    public var retransmissionsAsked = 0
    /// Packets a retransmission brought back in time.
    public var packetsRepaired = 0
    /// The round trip of a retransmission, from asking to its arrival (seconds; the
    /// longest of the streams' averages); nil before one came.
    public var retransmissionRoundTrip: Double?
    /// Keyframes asked of the sender.
    public var keyframesAsked = 0

    /// Nothing counted yet.
    public init() {}
}
