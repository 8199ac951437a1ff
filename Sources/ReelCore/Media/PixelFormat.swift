/// A picture layout, named as FFmpeg names it (`yuv420p`, `nv12`, `yuv420p10le`…).
///
/// A name rather than a closed enum: FFmpeg knows about two hundred layouts and a
/// decoder may produce any of them; the ones Reel handles itself have constants.
public struct PixelFormat: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A format by its FFmpeg name, known to Reel or not.
    public init(_ name: String) { self.rawValue = name }

    public var description: String { rawValue }

    /// Planar 4:2:0, 8 bits: most video.
    public static let yuv420p = PixelFormat("yuv420p")
    /// Planar 4:2:0, 8 bits, full range (JPEG's; FFmpeg's deprecated name).
    public static let yuvj420p = PixelFormat("yuvj420p")
    /// Planar 4:2:0, 10 bits in little-endian 16-bit words: HDR video.
    public static let yuv420p10le = PixelFormat("yuv420p10le")
    /// Luma plane, then interleaved U and V at 4:2:0 (hardware decoders' layout).
    public static let nv12 = PixelFormat("nv12")
    /// Like `nv12` with V before U.
    public static let nv21 = PixelFormat("nv21")
    /// `nv12` with 10 bits in the high bits of 16-bit words (hardware HDR).
    public static let p010le = PixelFormat("p010le")
    /// Packed B, G, R, A bytes.
    public static let bgra = PixelFormat("bgra")
    /// Packed R, G, B, A bytes.
    public static let rgba = PixelFormat("rgba")

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public init(from decoder: Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }
}
