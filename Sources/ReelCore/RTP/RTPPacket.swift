/// A received RTP packet (RFC 3550 5.1), parsed without trusting a single length: the
/// fixed header, the CSRC list, the header extension and the padding are each checked
/// against the bytes that arrived. The payload stays in the packet's own storage.
public struct RTPPacket: Sendable {
    /// The M bit: for video, the last packet of a picture.
    public var marker: Bool
    /// The payload type (7 bits), which the SDP maps to a codec.
    public var payloadType: UInt8
    /// Sequence number, one more for each packet sent.
    public var sequenceNumber: UInt16
    /// The media clock at the payload's sampling instant (90 kHz for video).
    public var timestamp: UInt32
    /// The synchronization source: the sender's stream identifier.
    public var ssrc: UInt32
    /// Contributing sources, as a mixer lists them.
    public var csrcs: [UInt32]
    /// The extension's profile-defined 16 bits and its words, when the X bit is set.
    public var extensionProfile: UInt16?
    /// Where the extension's words lie in `bytes`, when the X bit is set.
    public var extensionRange: Range<Int>?
    /// Where the payload sits in `bytes`, padding excluded.
    public var payloadRange: Range<Int>
    /// The packet as it arrived.
    public let bytes: [UInt8]

    /// The payload bytes, without the header, extension and padding.
    public var payload: ArraySlice<UInt8> { bytes[payloadRange] }
    /// The fixed header's fields.
    public var header: RTPHeader {
        RTPHeader(marker: marker, payloadType: payloadType, sequenceNumber: sequenceNumber, timestamp: timestamp, ssrc: ssrc)
    }

    /// Parses and checks `bytes`; a packet whose lengths do not add up is an error, not a crash.
    public init(bytes: [UInt8]) throws(RTPError) {
        self.bytes = bytes
        guard bytes.count >= RTPHeader.size else { throw RTPError("an RTP packet of \(bytes.count) bytes is shorter than its 12-byte header") }
        let first = bytes[0]
        guard first >> 6 == 2 else { throw RTPError("RTP version \(first >> 6), expected 2") }
        marker = bytes[1] & 0x80 != 0
        payloadType = bytes[1] & 0x7F
        sequenceNumber = UInt16(bytes[2]) << 8 | UInt16(bytes[3])
        timestamp = bytes.bigEndianUInt32(at: 4)
        ssrc = bytes.bigEndianUInt32(at: 8)
        let csrcCount = Int(first & 0x0F)
        var offset = RTPHeader.size + 4 * csrcCount
        guard offset <= bytes.count else { throw RTPError("the CSRC list (\(csrcCount) entries) runs past the packet") }
        csrcs = csrcCount == 0 ? [] : (0..<csrcCount).map { bytes.bigEndianUInt32(at: RTPHeader.size + 4 * $0) }
        if first & 0x10 != 0 {
            guard offset + 4 <= bytes.count else { throw RTPError("the header extension runs past the packet") }
            extensionProfile = UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
            let words = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let end = offset + 4 + 4 * words
            guard end <= bytes.count else { throw RTPError("the header extension (\(words) words) runs past the packet") }
            extensionRange = offset + 4..<end
            offset = end
        }
        var end = bytes.count
        if first & 0x20 != 0 {
            let padding = Int(bytes[bytes.count - 1])
            guard padding >= 1, offset + padding <= end else { throw RTPError("\(padding) bytes of padding do not fit the packet") }
            end -= padding
        }
        payloadRange = offset..<end
    }
}

extension Array where Element == UInt8 {
    /// The 32-bit big-endian value at `offset`; the caller has checked the bounds.
    @inline(__always)
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8 | UInt32(self[offset + 3])
    }

    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
