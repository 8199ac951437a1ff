/// The fields of an H.264 sequence parameter set (ITU-T H.264 7.3.2.1.1) that describe
/// the stream: profile, level, chroma format, bit depth and the cropped picture size.
public struct H264SequenceParameterSet: Sendable, Equatable {
    /// `profile_idc`: 66 baseline, 77 main, 100 high, 110 high 10…
    public var profileIDC: UInt8
    /// constraint_set0…5 flags and the two reserved bits, as the byte after profile_idc.
    public var constraintFlags: UInt8
    /// `level_idc`: 10 × the level (level 4.1 is 41).
    public var levelIDC: UInt8
    /// `chroma_format_idc`: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    public var chromaFormatIDC: UInt32 = 1
    /// Bits per luma sample.
    public var bitDepthLuma: Int = 8
    /// Bits per chroma sample.
    public var bitDepthChroma: Int = 8
    /// Width in pixels, after the frame cropping.
    public var width: Int = 0
    /// Height in pixels, after the frame cropping.
    public var height: Int = 0

    /// Profiles whose SPS carries chroma format, bit depth and scaling matrices.
    static let highProfiles: Set<UInt8> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]

    /// - Parameter nalUnit: the SPS NAL unit, header byte included.
    public init<Bytes: Collection>(nalUnit: Bytes) throws where Bytes.Element == UInt8 {
        guard let first = nalUnit.first, first & 0x1F == 7 else { throw BitstreamError("not an H.264 SPS") }
        var reader = BitReader(nalUnit: nalUnit.dropFirst())
        profileIDC = UInt8(try reader.bits(8))
        constraintFlags = UInt8(try reader.bits(8))
        levelIDC = UInt8(try reader.bits(8))
        _ = try reader.unsignedGolomb()
        var separateColourPlanes = false
        if Self.highProfiles.contains(profileIDC) {
            chromaFormatIDC = try reader.unsignedGolomb()
            guard chromaFormatIDC <= 3 else { throw BitstreamError("chroma_format_idc \(chromaFormatIDC) is out of range") }
            if chromaFormatIDC == 3 { separateColourPlanes = try reader.flag() }
            bitDepthLuma = 8 + Int(try reader.unsignedGolomb())
            bitDepthChroma = 8 + Int(try reader.unsignedGolomb())
            guard bitDepthLuma <= 14, bitDepthChroma <= 14 else { throw BitstreamError("bit depth beyond 14") }
            try reader.skip(1)
            if try reader.flag() {
                for list in 0..<(chromaFormatIDC == 3 ? 12 : 8) where try reader.flag() {
                    try Self.skipScalingList(&reader, size: list < 6 ? 16 : 64)
                }
            }
        }
        _ = try reader.unsignedGolomb()
        let pictureOrderCountType = try reader.unsignedGolomb()
        if pictureOrderCountType == 0 {
            _ = try reader.unsignedGolomb()
        } else if pictureOrderCountType == 1 {
            try reader.skip(1)
            _ = try reader.signedGolomb()
            _ = try reader.signedGolomb()
            let cycle = try reader.unsignedGolomb()
            guard cycle <= 255 else { throw BitstreamError("num_ref_frames_in_pic_order_cnt_cycle \(cycle) beyond 255") }
            for _ in 0..<cycle { _ = try reader.signedGolomb() }
        }
        _ = try reader.unsignedGolomb()
        try reader.skip(1)
        let widthInMacroblocks = Int(try reader.unsignedGolomb()) + 1
        let heightInMapUnits = Int(try reader.unsignedGolomb()) + 1
        let framesOnly = try reader.flag()
        if !framesOnly { try reader.skip(1) }
        try reader.skip(1)
        var crop = (left: 0, right: 0, top: 0, bottom: 0)
        if try reader.flag() {
            crop = (Int(try reader.unsignedGolomb()), Int(try reader.unsignedGolomb()), Int(try reader.unsignedGolomb()), Int(try reader.unsignedGolomb()))
        }
        let chromaArray = separateColourPlanes ? 0 : chromaFormatIDC
        let cropUnitX = chromaArray == 0 || chromaArray == 3 ? 1 : 2
        let cropUnitY = (chromaArray == 1 ? 2 : 1) * (framesOnly ? 1 : 2)
        width = widthInMacroblocks * 16 - cropUnitX * (crop.left + crop.right)
        height = (framesOnly ? 1 : 2) * heightInMapUnits * 16 - cropUnitY * (crop.top + crop.bottom)
        guard width > 0, height > 0, width <= 16_384, height <= 16_384 else { throw BitstreamError("picture size \(width)x\(height) is out of range") }
    }

    private static func skipScalingList(_ reader: inout BitReader, size: Int) throws {
        var last: Int32 = 8, next: Int32 = 8
        for _ in 0..<size where next != 0 {
            let delta = try reader.signedGolomb()
            guard (-128...127).contains(delta) else { throw BitstreamError("delta_scale \(delta) is out of range") }
            next = (last + delta + 256) % 256
            last = next == 0 ? last : next
        }
    }

    /// The profile's name as FFmpeg prints it (`Baseline`, `Constrained Baseline`, `Main`, `High`…).
    public var profileName: String {
        switch profileIDC {
        case 66: return constraintFlags & 0x40 != 0 ? "Constrained Baseline" : "Baseline"
        case 77: return "Main"
        case 88: return "Extended"
        case 100: return "High"
        case 110: return "High 10"
        case 122: return "High 4:2:2"
        case 244: return "High 4:4:4 Predictive"
        default: return "profile \(profileIDC)"
        }
    }
}
