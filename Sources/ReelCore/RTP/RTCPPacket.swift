/// One report block of an RTCP sender or receiver report (RFC 3550 6.4.1).
public struct RTCPReportBlock: Sendable, Equatable {
    /// The source the block reports on.
    public var ssrc: UInt32
    /// Packets lost since the previous report, as a fraction of 256.
    public var fractionLost: UInt8
    /// Packets lost since the start: 24 bits, signed (duplicates can make it negative).
    public var cumulativeLost: Int32
    /// The highest sequence number received, extended by 65,536 for each wrap.
    public var extendedHighestSequence: UInt32
    /// Interarrival jitter in RTP timestamp units (RFC 3550 A.8).
    public var jitter: UInt32
    /// The middle 32 bits of the NTP time of the last sender report, and the delay since, in 1/65536 s.
    public var lastSenderReport: UInt32
    /// Since that report, in 1/65536 s; 0 when none was received.
    public var delaySinceLastSenderReport: UInt32

    /// A report block with the fields as they go on the wire.
    public init(ssrc: UInt32, fractionLost: UInt8, cumulativeLost: Int32, extendedHighestSequence: UInt32,
                jitter: UInt32, lastSenderReport: UInt32, delaySinceLastSenderReport: UInt32) {
        self.ssrc = ssrc
        self.fractionLost = fractionLost
        self.cumulativeLost = cumulativeLost
        self.extendedHighestSequence = extendedHighestSequence
        self.jitter = jitter
        self.lastSenderReport = lastSenderReport
        self.delaySinceLastSenderReport = delaySinceLastSenderReport
    }

    static let size = 24

    init(_ bytes: [UInt8], at offset: Int) {
        ssrc = bytes.bigEndianUInt32(at: offset)
        fractionLost = bytes[offset + 4]
        let lost = bytes.bigEndianUInt32(at: offset + 4) & 0xFF_FFFF
        cumulativeLost = Int32(bitPattern: lost << 8) >> 8
        extendedHighestSequence = bytes.bigEndianUInt32(at: offset + 8)
        jitter = bytes.bigEndianUInt32(at: offset + 12)
        lastSenderReport = bytes.bigEndianUInt32(at: offset + 16)
        delaySinceLastSenderReport = bytes.bigEndianUInt32(at: offset + 20)
    }

    func append(to bytes: inout [UInt8]) {
        bytes.appendBigEndian(ssrc)
        let lost = UInt32(bitPattern: max(-0x80_0000, min(0x7F_FFFF, cumulativeLost))) & 0xFF_FFFF
        bytes.appendBigEndian(UInt32(fractionLost) << 24 | lost)
        for word in [extendedHighestSequence, jitter, lastSenderReport, delaySinceLastSenderReport] { bytes.appendBigEndian(word) }
    }
}

/// The RTCP packets Reel reads out of a compound packet (RFC 3550 6.4, 6.6); others are
/// kept by type only.
public enum RTCPPacket: Sendable, Equatable {
    /// A sender report: the sender's NTP wall clock and the RTP timestamp of the same instant, with packets and octets sent so far.
    case senderReport(ssrc: UInt32, ntpTimestamp: UInt64, rtpTimestamp: UInt32, packetCount: UInt32, octetCount: UInt32, reports: [RTCPReportBlock])
    /// A receiver report from a source that sends nothing.
    case receiverReport(ssrc: UInt32, reports: [RTCPReportBlock])
    /// The sources leave the session, with an optional reason.
    case bye(ssrcs: [UInt32], reason: String?)
    /// Any other RTCP packet (SDES, APP, feedback), by its type.
    case other(packetType: UInt8)

    /// The packets of a compound RTCP packet, each length checked against what arrived.
    public static func parseCompound(_ bytes: [UInt8]) throws(RTPError) -> [RTCPPacket] {
        var packets: [RTCPPacket] = []
        var offset = 0
        while offset < bytes.count {
            guard bytes.count - offset >= 4 else { throw RTPError("\(bytes.count - offset) bytes left after the last RTCP packet") }
            guard bytes[offset] >> 6 == 2 else { throw RTPError("RTCP version \(bytes[offset] >> 6), expected 2") }
            let count = Int(bytes[offset] & 0x1F)
            let type = bytes[offset + 1]
            let length = ((Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])) + 1) * 4
            guard offset + length <= bytes.count else { throw RTPError("an RTCP packet of \(length) bytes runs past the \(bytes.count) that arrived") }
            var end = offset + length
            if bytes[offset] & 0x20 != 0 {
                let padding = Int(bytes[end - 1])
                guard padding >= 1, padding <= length - 4 else { throw RTPError("\(padding) bytes of RTCP padding do not fit") }
                end -= padding
            }
            let body = offset + 4
            switch type {
            case 200:
                guard body + 24 + count * RTCPReportBlock.size <= end else { throw RTPError("a sender report too short for \(count) report blocks") }
                let ntp = UInt64(bytes.bigEndianUInt32(at: body + 4)) << 32 | UInt64(bytes.bigEndianUInt32(at: body + 8))
                packets.append(.senderReport(
                    ssrc: bytes.bigEndianUInt32(at: body), ntpTimestamp: ntp, rtpTimestamp: bytes.bigEndianUInt32(at: body + 12),
                    packetCount: bytes.bigEndianUInt32(at: body + 16), octetCount: bytes.bigEndianUInt32(at: body + 20),
                    reports: (0..<count).map { RTCPReportBlock(bytes, at: body + 24 + $0 * RTCPReportBlock.size) }))
            case 201:
                guard body + 4 + count * RTCPReportBlock.size <= end else { throw RTPError("a receiver report too short for \(count) report blocks") }
                packets.append(.receiverReport(ssrc: bytes.bigEndianUInt32(at: body),
                                               reports: (0..<count).map { RTCPReportBlock(bytes, at: body + 4 + $0 * RTCPReportBlock.size) }))
            case 203:
                guard body + 4 * count <= end else { throw RTPError("a BYE too short for \(count) sources") }
                var reason: String?
                let reasonAt = body + 4 * count
                if reasonAt < end {
                    let reasonLength = Int(bytes[reasonAt])
                    guard reasonAt + 1 + reasonLength <= end else { throw RTPError("a BYE reason runs past its packet") }
                    reason = String(decoding: bytes[reasonAt + 1..<reasonAt + 1 + reasonLength], as: UTF8.self)
                }
                packets.append(.bye(ssrcs: (0..<count).map { bytes.bigEndianUInt32(at: body + 4 * $0) }, reason: reason))
            default:
                packets.append(.other(packetType: type))
            }
            offset += length
        }
        guard !packets.isEmpty else { throw RTPError("an empty RTCP packet") }
        return packets
    }

    /// A compound receiver report with the SDES CNAME that RFC 3550 6.1 requires beside it.
    public static func receiverReport(ssrc: UInt32, reports: [RTCPReportBlock], cname: String) -> [UInt8] {
        let blocks = Array(reports.prefix(31))
        var bytes: [UInt8] = [0x80 | UInt8(blocks.count), 201]
        let words = 1 + blocks.count * RTCPReportBlock.size / 4
        bytes += [UInt8(words >> 8), UInt8(words & 0xFF)]
        bytes.appendBigEndian(ssrc)
        for block in blocks { block.append(to: &bytes) }
        return bytes + sourceDescription(ssrc: ssrc, cname: cname)
    }

    /// A compound sender report (RFC 3550 6.4.1) with the SDES CNAME: the sender's wall
    /// clock and the RTP timestamp of the same instant, and what it sent so far (packets, and
    /// payload octets without headers or padding). With `goodbye`, a BYE ends it (6.6).
    public static func senderReport(ssrc: UInt32, ntpTimestamp: NTPTimestamp, rtpTimestamp: UInt32, packetCount: UInt32,
                                    octetCount: UInt32, cname: String, goodbye: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [0x80, 200, 0, 6]
        bytes.appendBigEndian(ssrc)
        bytes.appendBigEndian(UInt32(truncatingIfNeeded: ntpTimestamp.value >> 32))
        bytes.appendBigEndian(UInt32(truncatingIfNeeded: ntpTimestamp.value))
        for word in [rtpTimestamp, packetCount, octetCount] { bytes.appendBigEndian(word) }
        bytes += sourceDescription(ssrc: ssrc, cname: cname)
        if goodbye {
            bytes += [0x81, 203, 0, 1]
            bytes.appendBigEndian(ssrc)
        }
        return bytes
    }

    /// SDES with one chunk: the CNAME item, then a null item padding the chunk to 32 bits.
    private static func sourceDescription(ssrc: UInt32, cname: String) -> [UInt8] {
        let name = Array(cname.utf8.prefix(255))
        var chunk: [UInt8] = []
        chunk.appendBigEndian(ssrc)
        chunk += [1, UInt8(name.count)] + name + [0]
        while chunk.count % 4 != 0 { chunk.append(0) }
        let words = chunk.count / 4
        return [0x81, 202, UInt8(words >> 8), UInt8(words & 0xFF)] + chunk
    }
}
