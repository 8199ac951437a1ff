/// CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, no reflection): a check
/// small enough to draw into a picture beside the value it guards.
public enum CRC16 {
    /// The checksum of `bytes`; of `123456789` it is 0x29B1.
    public static func ccittFalse<Bytes: Sequence>(_ bytes: Bytes) -> UInt16 where Bytes.Element == UInt8 {
        var crc: UInt16 = 0xFFFF
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? crc << 1 ^ 0x1021 : crc << 1 }
        }
        return crc
    }
}
