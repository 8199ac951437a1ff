/// Cuts a byte stream into packets that each follow a big-endian length: 2 bytes for RTP
/// over TCP (RFC 4571), 4 bytes for the seed's HTTP progressive download. Bytes arrive in
/// chunks of any size; a length above the cap is an error (the stream is out of step).
public struct LengthPrefixedFramer: Sendable {
    /// Bytes of each length: 2 (RFC 4571) or 4.
    public let lengthSize: Int
    /// The largest packet accepted; a larger length is an error.
    public let maxPacketSize: Int
    private var buffer: [UInt8] = []
    private var start = 0

    /// A framer for lengths of `lengthSize` bytes (2 or 4).
    public init(lengthSize: Int, maxPacketSize: Int = 65_535) {
        precondition(lengthSize == 2 || lengthSize == 4)
        self.lengthSize = lengthSize
        self.maxPacketSize = maxPacketSize
    }

    /// Adds bytes as they arrive, in chunks of any size.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole packet, or nil until more bytes arrive.
    public mutating func next() throws(RTPError) -> [UInt8]? {
        guard buffer.count - start >= lengthSize else { return nil }
        var length = 0
        for index in 0..<lengthSize { length = length << 8 | Int(buffer[start + index]) }
        guard length <= maxPacketSize else { throw RTPError("a framed packet of \(length) bytes is larger than \(maxPacketSize): the stream is out of step") }
        guard buffer.count - start - lengthSize >= length else { return nil }
        let packet = Array(buffer[start + lengthSize..<start + lengthSize + length])
        start += lengthSize + length
        return packet
    }

    /// `packet` behind its length, as a sender frames it.
    public static func frame(_ packet: [UInt8], lengthSize: Int) -> [UInt8] {
        (0..<lengthSize).reversed().map { UInt8(truncatingIfNeeded: packet.count >> (8 * $0)) } + packet
    }
}
