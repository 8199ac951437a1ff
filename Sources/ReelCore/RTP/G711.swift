/// ITU-T G.711 companding, as cameras take talk-back audio (RTP payload types 0, PCMU, and
/// 8, PCMA): 16-bit linear samples to 8-bit μ-law or A-law by FFmpeg's tables (each 14-bit
/// level goes to the code whose decoded value is nearest, halfway rounding up), so Reel
/// sends the same bytes as FFmpeg's `pcm_mulaw` and `pcm_alaw` encoders.
public enum G711 {
    /// `sample` in μ-law.
    public static func muLaw(_ sample: Int16) -> UInt8 { muLawTable[(Int(sample) + 32768) >> 2] }

    /// `sample` in A-law.
    public static func aLaw(_ sample: Int16) -> UInt8 { aLawTable[(Int(sample) + 32768) >> 2] }

    /// The linear value μ-law code `code` stands for (the decoder's).
    public static func linear(muLaw code: UInt8) -> Int {
        let inverted = ~code
        let magnitude = ((Int(inverted & 0x0F) << 3) + 0x84) << Int((inverted & 0x70) >> 4)
        return inverted & 0x80 != 0 ? 0x84 - magnitude : magnitude - 0x84
    }

    /// The linear value A-law code `code` stands for (the decoder's).
    public static func linear(aLaw code: UInt8) -> Int {
        let value = code ^ 0x55
        let segment = Int((value & 0x70) >> 4), mantissa = Int(value & 0x0F)
        let magnitude = segment > 0 ? (2 * mantissa + 1 + 32) << (segment + 2) : (2 * mantissa + 1) << 3
        return value & 0x80 != 0 ? magnitude : -magnitude
    }

    private static let muLawTable = table(decoding: { linear(muLaw: $0) }, mask: 0xFF)
    private static let aLawTable = table(decoding: { linear(aLaw: $0) }, mask: 0xD5)

    /// For each 14-bit level from −8192, the code of that sign whose value is nearest:
    /// codes 0…127 of one sign in order of magnitude (XOR `mask`), each taking the levels up
    /// to halfway to the next.
    private static func table(decoding: (UInt8) -> Int, mask: UInt8) -> [UInt8] {
        var table = [UInt8](repeating: 0, count: 16384)
        table[8192] = mask
        var level = 1
        for code in 0..<127 {
            let halfway = (decoding(UInt8(code) ^ mask) + decoding(UInt8(code + 1) ^ mask) + 4) >> 3
            while level < halfway {
                table[8192 - level] = UInt8(code) ^ (mask ^ 0x80)
                table[8192 + level] = UInt8(code) ^ mask
                level += 1
            }
        }
        while level < 8192 {
            table[8192 - level] = 127 ^ (mask ^ 0x80)
            table[8192 + level] = 127 ^ mask
            level += 1
        }
        table[0] = table[1]
        return table
    }
}
