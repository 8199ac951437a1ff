/// The fields of an H.265 sequence parameter set (ITU-T H.265 7.3.2.2) that an `hvcC`
/// record repeats: the general profile, tier and level, chroma format, bit depths and size.
public struct H265SequenceParameterSet: Sendable, Equatable {
    /// `general_profile_space`: 0 for every profile defined so far.
    public var profileSpace: UInt8 = 0
    /// `general_tier_flag`: 0 Main tier, 1 High tier.
    public var tierFlag: UInt8 = 0
    /// `general_profile_idc`: 1 Main, 2 Main 10, 4 range extensions…
    public var profileIDC: UInt8 = 0
    /// `general_profile_compatibility_flag[32]`, bit 31 first.
    public var profileCompatibilityFlags: UInt32 = 0
    /// The 48 bits of general constraint indicator flags.
    public var constraintIndicatorFlags: UInt64 = 0
    /// `general_level_idc`: 30 × the level (level 4.1 is 123).
    public var levelIDC: UInt8 = 0
    /// `sps_max_sub_layers_minus1` + 1: temporal sub-layers in the stream.
    public var maxSubLayers: Int = 1
    /// `sps_temporal_id_nesting_flag`.
    public var temporalIDNesting = false
    /// `chroma_format_idc`: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    public var chromaFormatIDC: UInt32 = 1
    /// Bits per luma sample.
    public var bitDepthLuma = 8
    /// Bits per chroma sample.
    public var bitDepthChroma = 8
    /// Width in luma samples, after the conformance window.
    public var width = 0
    /// Height in luma samples, after the conformance window.
    public var height = 0

    /// - Parameter nalUnit: the SPS NAL unit, both header bytes included.
    public init<Bytes: Collection>(nalUnit: Bytes) throws where Bytes.Element == UInt8 {
        guard nalUnit.count > 2, let first = nalUnit.first, (first >> 1) & 0x3F == 33 else { throw BitstreamError("not an H.265 SPS") }
        var reader = BitReader(nalUnit: nalUnit.dropFirst(2))
        try reader.skip(4)
        maxSubLayers = Int(try reader.bits(3)) + 1
        guard maxSubLayers <= 7 else { throw BitstreamError("sps_max_sub_layers_minus1 is 7") }
        temporalIDNesting = try reader.flag()
        try readProfileTierLevel(&reader)
        _ = try reader.unsignedGolomb()
        chromaFormatIDC = try reader.unsignedGolomb()
        guard chromaFormatIDC <= 3 else { throw BitstreamError("chroma_format_idc \(chromaFormatIDC) is out of range") }
        var separateColourPlanes = false
        if chromaFormatIDC == 3 { separateColourPlanes = try reader.flag() }
        width = Int(try reader.unsignedGolomb())
        height = Int(try reader.unsignedGolomb())
        if try reader.flag() {
            let chromaArray = separateColourPlanes ? 0 : chromaFormatIDC
            let unitX = chromaArray == 1 || chromaArray == 2 ? 2 : 1, unitY = chromaArray == 1 ? 2 : 1
            let left = Int(try reader.unsignedGolomb()), right = Int(try reader.unsignedGolomb())
            let top = Int(try reader.unsignedGolomb()), bottom = Int(try reader.unsignedGolomb())
            width -= unitX * (left + right)
            height -= unitY * (top + bottom)
        }
        guard width > 0, height > 0, width <= 16_384, height <= 16_384 else { throw BitstreamError("picture size \(width)x\(height) is out of range") }
        bitDepthLuma = 8 + Int(try reader.unsignedGolomb())
        bitDepthChroma = 8 + Int(try reader.unsignedGolomb())
        guard bitDepthLuma <= 16, bitDepthChroma <= 16 else { throw BitstreamError("bit depth beyond 16") }
    }

    private mutating func readProfileTierLevel(_ reader: inout BitReader) throws {
        profileSpace = UInt8(try reader.bits(2))
        tierFlag = UInt8(try reader.bits(1))
        profileIDC = UInt8(try reader.bits(5))
        profileCompatibilityFlags = try reader.bits(32)
        constraintIndicatorFlags = UInt64(try reader.bits(16)) << 32 | UInt64(try reader.bits(32))
        levelIDC = UInt8(try reader.bits(8))
        let subLayers = maxSubLayers - 1
        var present: [(profile: Bool, level: Bool)] = []
        for _ in 0..<subLayers { present.append((try reader.flag(), try reader.flag())) }
        if subLayers > 0 { try reader.skip(2 * (8 - subLayers)) }
        for layer in present {
            if layer.profile { try reader.skip(88) }
            if layer.level { try reader.skip(8) }
        }
    }
}
