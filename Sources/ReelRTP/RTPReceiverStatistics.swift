import ReelCore

/// Everything an RTP receiver counted, for the live line and the final report.
public struct RTPReceiverStatistics: Sendable, Codable, Equatable {
    /// Sequence numbers, losses, duplicates, reordering and jitter (RFC 3550).
    public var packets = RTPReceptionStatistics()
    /// Access units handed over.
    public var accessUnits = 0
    /// Of those, keyframes.
    public var keyframes = 0
    /// Of those, units with a part missing.
    public var corruptedAccessUnits = 0
    /// Access units dropped while waiting for a keyframe.
    public var skippedAccessUnits = 0
    /// RTP packets that could not be parsed, or had another payload type.
    public var malformedPackets = 0
    /// Payloads the depacketizer could not read (a bad NAL unit header or fragment).
    public var malformedPayloads = 0
    /// SRTP/SRTCP packets that failed authentication (dropped), and replays libsrtp refused.
    public var authenticationFailures = 0
    /// SRTP packets libsrtp refused as replays.
    public var replayedPackets = 0
    /// Datagrams dropped because the receiving thread fell behind: its inbox was full, or
    /// the UDP socket's buffer was (the kernel's count).
    public var droppedWhileBusy = 0
    /// RTCP packets received.
    public var rtcpPackets = 0
    /// Of those, sender reports.
    public var senderReports = 0
    /// Receiver reports sent back.
    public var receiverReportsSent = 0
    /// BYE packets received.
    public var byes = 0
    /// Bytes of datagrams received (RTP and RTCP, before decryption).
    public var bytesReceived = 0
    /// Seconds since the receiver started.
    public var seconds: Double = 0

    /// All counters at zero.
    public init() {}

    /// Received bits per second over the session.
    public var bitRate: Double { seconds > 0 ? Double(bytesReceived * 8) / seconds : 0 }
}
