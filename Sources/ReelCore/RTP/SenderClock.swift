/// A sender's wall clock as its last RTCP sender report gives it (RFC 3550 6.4.1): the NTP
/// time and the RTP timestamp of the same instant. With it an RTP timestamp becomes the wall
/// time its media was captured at, on the sender's clock: what lip sync between streams and
/// a glass-to-glass latency need.
public struct SenderClock: Sendable, Hashable {
    /// The sender's wall clock at the report.
    public var ntpTimestamp: NTPTimestamp
    /// The RTP timestamp of the same instant.
    public var rtpTimestamp: UInt32
    /// RTP ticks per second.
    public var clockRate: Int

    /// The mapping a sender report gives.
    public init(ntpTimestamp: NTPTimestamp, rtpTimestamp: UInt32, clockRate: Int) {
        self.ntpTimestamp = ntpTimestamp
        self.rtpTimestamp = rtpTimestamp
        self.clockRate = clockRate
    }

    /// The Unix time of `timestamp` on the sender's clock. Timestamps are compared as the
    /// signed 32-bit step from the report's, so media before it and across a wrap map too.
    public func unixSeconds(ofRTPTimestamp timestamp: UInt32) -> Double {
        let ticks = Int32(bitPattern: timestamp &- rtpTimestamp)
        return ntpTimestamp.unixSeconds + Double(ticks) / Double(max(clockRate, 1))
    }
}
