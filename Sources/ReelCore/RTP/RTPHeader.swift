/// The fixed RTP header (RFC 3550 5.1) of a packet Reel sends: version 2, no padding, no
/// extension, no CSRC.
public struct RTPHeader: Sendable, Equatable {
    /// The M bit: for video, the last packet of a picture.
    public var marker: Bool
    /// The payload type (7 bits).
    public var payloadType: UInt8
    /// Sequence number, one more for each packet.
    public var sequenceNumber: UInt16
    /// The media clock at the payload's sampling instant.
    public var timestamp: UInt32
    /// The synchronization source.
    public var ssrc: UInt32

    /// A header with no CSRCs, no extension and no padding.
    public init(marker: Bool, payloadType: UInt8, sequenceNumber: UInt16, timestamp: UInt32, ssrc: UInt32) {
        self.marker = marker
        self.payloadType = payloadType
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.ssrc = ssrc
    }

    /// Bytes of the fixed header.
    public static let size = 12

    /// The 12 header bytes.
    public var bytes: [UInt8] {
        [0x80, (marker ? 0x80 : 0) | payloadType & 0x7F,
         UInt8(sequenceNumber >> 8), UInt8(sequenceNumber & 0xFF),
         UInt8(timestamp >> 24), UInt8(timestamp >> 16 & 0xFF), UInt8(timestamp >> 8 & 0xFF), UInt8(timestamp & 0xFF),
         UInt8(ssrc >> 24), UInt8(ssrc >> 16 & 0xFF), UInt8(ssrc >> 8 & 0xFF), UInt8(ssrc & 0xFF)]
    }
}
