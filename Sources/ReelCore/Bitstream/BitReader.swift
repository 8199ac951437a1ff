/// Reads the bits of a NAL unit's payload (RBSP), most significant first, including the
/// Exp-Golomb codes of parameter sets. Reading past the end throws; it never traps.
public struct BitReader: Sendable {
    private let bytes: [UInt8]
    private var bitPosition = 0

    /// - Parameter nalUnit: the unit as it travels; emulation prevention bytes (`00 00 03`)
    ///   are removed here.
    public init<Bytes: Collection>(nalUnit: Bytes) where Bytes.Element == UInt8 {
        var payload: [UInt8] = []
        payload.reserveCapacity(nalUnit.count)
        var zeros = 0
        for byte in nalUnit {
            if zeros >= 2, byte == 3 { zeros = 0; continue }
            zeros = byte == 0 ? zeros + 1 : 0
            payload.append(byte)
        }
        bytes = payload
    }

    /// Bits not read yet.
    public var bitsLeft: Int { bytes.count * 8 - bitPosition }

    /// The next bit; an error past the end.
    public mutating func bit() throws -> UInt32 {
        guard bitPosition < bytes.count * 8 else { throw BitstreamError("a parameter set ends too early") }
        defer { bitPosition += 1 }
        return UInt32(bytes[bitPosition >> 3] >> (7 - UInt8(bitPosition & 7)) & 1)
    }

    /// The next `count` bits (at most 32), most significant first.
    public mutating func bits(_ count: Int) throws -> UInt32 {
        precondition(count <= 32)
        var value: UInt32 = 0
        for _ in 0..<count { value = value << 1 | (try bit()) }
        return value
    }

    /// The next bit as a flag.
    public mutating func flag() throws -> Bool { try bit() == 1 }

    /// Skips `count` bits; an error past the end.
    public mutating func skip(_ count: Int) throws {
        guard count <= bitsLeft else { throw BitstreamError("a parameter set ends too early") }
        bitPosition += count
    }

    /// ue(v). Values above 2³²−2 are damage, not data.
    public mutating func unsignedGolomb() throws -> UInt32 {
        var leadingZeros = 0
        while try bit() == 0 {
            leadingZeros += 1
            guard leadingZeros < 32 else { throw BitstreamError("an Exp-Golomb code is too long") }
        }
        return (1 << leadingZeros) - 1 + (try bits(leadingZeros))
    }

    /// se(v).
    public mutating func signedGolomb() throws -> Int32 {
        let code = try unsignedGolomb()
        return code & 1 == 1 ? Int32(code / 2 + 1) : -Int32(code / 2)
    }
}
