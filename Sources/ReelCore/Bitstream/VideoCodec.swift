/// The video codecs Reel encodes and carries over RTP: their NAL unit headers differ.
public enum VideoCodec: String, Sendable, CaseIterable, Codable {
    /// H.264 / AVC (ITU-T H.264): one-byte NAL unit headers.
    case h264
    /// H.265 / HEVC (ITU-T H.265): two-byte NAL unit headers.
    case h265

    /// Bytes in a NAL unit header (H.264: 1, H.265: 2).
    public var nalHeaderSize: Int { self == .h264 ? 1 : 2 }

    /// The NAL unit type of a unit that starts with `firstByte`.
    public func nalType(_ firstByte: UInt8) -> UInt8 {
        self == .h264 ? firstByte & 0x1F : (firstByte >> 1) & 0x3F
    }

    /// A picture decoders can start from: IDR for H.264, IRAP (BLA, IDR, CRA) for H.265.
    public func isRandomAccess(nalType type: UInt8) -> Bool {
        self == .h264 ? type == 5 : (16...23).contains(type)
    }

    /// VPS (H.265), SPS or PPS.
    public func isParameterSet(nalType type: UInt8) -> Bool {
        self == .h264 ? type == 7 || type == 8 : (32...34).contains(type)
    }

    /// A slice of a picture (H.264 types 1–5; H.265 VCL types 0–31).
    public func isSlice(nalType type: UInt8) -> Bool { self == .h264 ? (1...5).contains(type) : type <= 31 }

    /// An access unit delimiter.
    public func isDelimiter(nalType type: UInt8) -> Bool { type == (self == .h264 ? 9 : 35) }

    /// Units that, after a picture's slices, begin the next access unit (H.264 7.4.1.2.3,
    /// H.265 7.4.2.4.4).
    public func precedesPictures(nalType type: UInt8) -> Bool {
        switch self {
        case .h264: return (6...9).contains(type) || (14...18).contains(type)
        case .h265: return (32...35).contains(type) || type == 39 || (41...44).contains(type) || (48...55).contains(type)
        }
    }

    /// The first slice of a picture: first_mb_in_slice = 0 (its Exp-Golomb code is the
    /// single bit 1), or first_slice_segment_in_pic_flag. `unit` starts at its NAL header.
    public func isFirstSliceOfPicture<Unit: Collection<UInt8>>(_ unit: Unit) -> Bool {
        guard let header = unit.first, isSlice(nalType: nalType(header)) else { return false }
        guard let sliceStart = unit.dropFirst(nalHeaderSize).first else { return false }
        return sliceStart & 0x80 != 0
    }

    /// The RTP encoding name (`a=rtpmap`).
    public var rtpEncodingName: String { self == .h264 ? "H264" : "H265" }
}

/// Why a bitstream could not be read or written.
public struct BitstreamError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    /// An error that says what is wrong in `description`.
    public init(_ description: String) { self.description = description }
}
