/// The `avcC` (ISO/IEC 14496-15 5.3.3) and `hvcC` (8.3.3) records: a stream's parameter
/// sets and the facts a demuxer needs before the first sample, with NAL lengths of 4 bytes.
public enum DecoderConfigurationRecord {
    /// An `avcC` body from SPS and PPS units (headers included); the profile, compatibility
    /// and level come from the first SPS.
    public static func avcC(sequenceParameterSets: [[UInt8]], pictureParameterSets: [[UInt8]]) throws -> [UInt8] {
        guard let first = sequenceParameterSets.first else { throw BitstreamError("an avcC record needs an SPS") }
        guard sequenceParameterSets.count <= 31, pictureParameterSets.count <= 255 else { throw BitstreamError("too many parameter sets") }
        let sps = try H264SequenceParameterSet(nalUnit: first)
        var record: [UInt8] = [1, sps.profileIDC, sps.constraintFlags, sps.levelIDC, 0xFC | 3, 0xE0 | UInt8(sequenceParameterSets.count)]
        for unit in sequenceParameterSets { try append(unit, to: &record) }
        record.append(UInt8(pictureParameterSets.count))
        for unit in pictureParameterSets { try append(unit, to: &record) }
        if H264SequenceParameterSet.highProfiles.contains(sps.profileIDC) {
            record += [0xFC | UInt8(sps.chromaFormatIDC), 0xF8 | UInt8(sps.bitDepthLuma - 8), 0xF8 | UInt8(sps.bitDepthChroma - 8), 0]
        }
        return record
    }

    /// An `hvcC` body from VPS, SPS and PPS units (headers included), described by the
    /// first SPS.
    public static func hvcC(videoParameterSets: [[UInt8]], sequenceParameterSets: [[UInt8]], pictureParameterSets: [[UInt8]]) throws -> [UInt8] {
        guard let first = sequenceParameterSets.first, !videoParameterSets.isEmpty, !pictureParameterSets.isEmpty else {
            throw BitstreamError("an hvcC record needs a VPS, an SPS and a PPS")
        }
        let sps = try H265SequenceParameterSet(nalUnit: first)
        var record: [UInt8] = [1, sps.profileSpace << 6 | sps.tierFlag << 5 | sps.profileIDC]
        record += bigEndian(UInt64(sps.profileCompatibilityFlags), bytes: 4)
        record += bigEndian(sps.constraintIndicatorFlags, bytes: 6)
        record += [sps.levelIDC, 0xF0, 0x00, 0xFC, 0xFC | UInt8(sps.chromaFormatIDC),
                   0xF8 | UInt8(sps.bitDepthLuma - 8), 0xF8 | UInt8(sps.bitDepthChroma - 8), 0, 0,
                   UInt8(sps.maxSubLayers) << 3 | (sps.temporalIDNesting ? 1 << 2 : 0) | 3, 3]
        for (type, units) in [(UInt8(32), videoParameterSets), (33, sequenceParameterSets), (34, pictureParameterSets)] {
            guard units.count <= 0xFFFF else { throw BitstreamError("too many parameter sets") }
            record += [0x80 | type, UInt8(units.count >> 8), UInt8(units.count & 0xFF)]
            for unit in units { try append(unit, to: &record) }
        }
        return record
    }

    /// The parameter sets of an `avcC` or `hvcC` body, in the record's order, and the size
    /// of the NAL lengths in samples.
    public static func parameterSets(of record: [UInt8], codec: VideoCodec) throws -> (units: [[UInt8]], lengthSize: Int) {
        var reader = RecordReader(bytes: record)
        guard try reader.byte() == 1 else { throw BitstreamError("unknown \(codec == .h264 ? "avcC" : "hvcC") version") }
        var units: [[UInt8]] = []
        let lengthSize: Int
        switch codec {
        case .h264:
            try reader.skip(3)
            lengthSize = Int(try reader.byte() & 3) + 1
            for _ in 0..<(try reader.byte() & 0x1F) { units.append(try reader.unit()) }
            for _ in 0..<(try reader.byte()) { units.append(try reader.unit()) }
        case .h265:
            try reader.skip(20)
            lengthSize = Int(try reader.byte() & 3) + 1
            for _ in 0..<(try reader.byte()) {
                try reader.skip(1)
                let count = Int(try reader.byte()) << 8 | Int(try reader.byte())
                for _ in 0..<count { units.append(try reader.unit()) }
            }
        }
        return (units, lengthSize)
    }

    private static func append(_ unit: [UInt8], to record: inout [UInt8]) throws {
        guard !unit.isEmpty, unit.count <= 0xFFFF else { throw BitstreamError("a parameter set of \(unit.count) bytes does not fit a record") }
        record += [UInt8(unit.count >> 8), UInt8(unit.count & 0xFF)] + unit
    }

    private static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(value >> (8 * UInt64($0)) & 0xFF) }
    }

    private struct RecordReader {
        let bytes: [UInt8]
        var position = 0

        mutating func byte() throws -> UInt8 {
            guard position < bytes.count else { throw BitstreamError("the configuration record ends too early") }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func skip(_ count: Int) throws {
            guard count <= bytes.count - position else { throw BitstreamError("the configuration record ends too early") }
            position += count
        }

        mutating func unit() throws -> [UInt8] {
            let length = Int(try byte()) << 8 | Int(try byte())
            guard length > 0, length <= bytes.count - position else { throw BitstreamError("a parameter set runs past the configuration record") }
            defer { position += length }
            return Array(bytes[position..<position + length])
        }
    }
}
