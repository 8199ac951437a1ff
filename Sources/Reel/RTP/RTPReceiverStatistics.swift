import ReelCore

/// Everything an RTP receiver counted, for the live line and the final report.
public struct RTPReceiverStatistics: Sendable, Codable, Equatable {
    /// Sequence numbers, losses, duplicates, reordering and jitter (RFC 3550).
    public var packets = RTPReceptionStatistics()
    public var accessUnits = 0
    public var keyframes = 0
    public var corruptedAccessUnits = 0
    /// Access units dropped while waiting for a keyframe.
    public var skippedAccessUnits = 0
    /// RTP packets that could not be parsed, or had another payload type.
    public var malformedPackets = 0
    public var malformedPayloads = 0
    /// SRTP/SRTCP packets that failed authentication (dropped), and replays libsrtp refused.
    public var authenticationFailures = 0
    public var replayedPackets = 0
    /// Datagrams dropped because the receiving thread fell behind: its inbox was full, or
    /// the UDP socket's buffer was (the kernel's count).
    public var droppedWhileBusy = 0
    public var rtcpPackets = 0
    public var senderReports = 0
    public var receiverReportsSent = 0
    public var byes = 0
    /// Bytes of datagrams received (RTP and RTCP, before decryption).
    public var bytesReceived = 0
    public var seconds: Double = 0

    public init() {}

    /// Received bits per second over the session.
    public var bitRate: Double { seconds > 0 ? Double(bytesReceived * 8) / seconds : 0 }
}
