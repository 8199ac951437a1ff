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

    /// The RTP encoding name (`a=rtpmap`).
    public var rtpEncodingName: String { self == .h264 ? "H264" : "H265" }
}

/// Why a bitstream could not be read or written.
public struct BitstreamError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    /// An error that says what is wrong in `description`.
    public init(_ description: String) { self.description = description }
}
