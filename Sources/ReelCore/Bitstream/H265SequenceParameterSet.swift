/// The fields of an H.265 sequence parameter set (ITU-T H.265 7.3.2.2) that an `hvcC`
/// record repeats: the general profile, tier and level, chroma format, bit depths and size.
public struct H265SequenceParameterSet: Sendable, Equatable {
    public var profileSpace: UInt8 = 0
    public var tierFlag: UInt8 = 0
    public var profileIDC: UInt8 = 0
    public var profileCompatibilityFlags: UInt32 = 0
    /// The 48 bits of general constraint indicator flags.
    public var constraintIndicatorFlags: UInt64 = 0
    public var levelIDC: UInt8 = 0
    public var maxSubLayers: Int = 1
    public var temporalIDNesting = false
    public var chromaFormatIDC: UInt32 = 1
    public var bitDepthLuma = 8
    public var bitDepthChroma = 8
    public var width = 0
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
