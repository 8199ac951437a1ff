/// Converting between the two ways NAL units travel: Annex B byte streams (each unit after
/// a `00 00 01` or `00 00 00 01` start code, as in .h264 files) and length-prefixed
/// samples (each unit after its size, big-endian, as in MP4 and VideoToolbox output).
public enum AnnexB {
    /// The NAL units of an Annex B stream, start codes removed (and the zero bytes before a
    /// start code, which belong to the next start code, not to the unit).
    public static func units(in stream: [UInt8]) -> [ArraySlice<UInt8>] {
        var units: [ArraySlice<UInt8>] = []
        var unitStart: Int?
        var index = 0
        let count = stream.count
        while index + 2 < count {
            if stream[index + 2] > 1 { index += 3; continue }
            if stream[index] == 0, stream[index + 1] == 0, stream[index + 2] == 1 {
                if let start = unitStart {
                    var end = index
                    while end > start, stream[end - 1] == 0 { end -= 1 }
                    if end > start { units.append(stream[start..<end]) }
                }
                index += 3
                unitStart = index
            } else {
                index += 1
            }
        }
        if let start = unitStart, start < count {
            var end = count
            while end > start, stream[end - 1] == 0 { end -= 1 }
            if end > start { units.append(stream[start..<end]) }
        }
        return units
    }

    /// The units joined with 4-byte start codes.
    public static func stream<Units: Sequence>(of units: Units) -> [UInt8] where Units.Element: Collection, Units.Element.Element == UInt8 {
        var stream: [UInt8] = []
        for unit in units {
            stream += [0, 0, 0, 1]
            stream += unit
        }
        return stream
    }

    /// The units of a length-prefixed sample; a length running past the end is an error.
    public static func units(inLengthPrefixed sample: [UInt8], lengthSize: Int = 4) throws -> [ArraySlice<UInt8>] {
        guard (1...4).contains(lengthSize) else { throw BitstreamError("NAL length size \(lengthSize) is not 1 to 4") }
        var units: [ArraySlice<UInt8>] = []
        var position = 0
        while position < sample.count {
            guard sample.count - position >= lengthSize else { throw BitstreamError("a NAL length is cut off at byte \(position)") }
            var length = 0
            for byte in sample[position..<position + lengthSize] { length = length << 8 | Int(byte) }
            position += lengthSize
            guard length <= sample.count - position else {
                throw BitstreamError("a NAL unit of \(length) bytes at byte \(position) runs past the sample's \(sample.count)")
            }
            if length > 0 { units.append(sample[position..<position + length]) }
            position += length
        }
        return units
    }

    /// The units each after its 4-byte big-endian length.
    public static func lengthPrefixed<Units: Sequence>(_ units: Units) -> [UInt8] where Units.Element: Collection, Units.Element.Element == UInt8 {
        var sample: [UInt8] = []
        for unit in units {
            let length = UInt32(unit.count)
            sample += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            sample += unit
        }
        return sample
    }
}
