/// A picture layout, named as FFmpeg names it (`yuv420p`, `nv12`, `yuv420p10le`…).
///
/// A name rather than a closed enum: FFmpeg knows about two hundred layouts and a
/// decoder may produce any of them; the ones Reel handles itself have constants.
public struct PixelFormat: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ name: String) { self.rawValue = name }

    public var description: String { rawValue }

    public static let yuv420p = PixelFormat("yuv420p")
    public static let yuvj420p = PixelFormat("yuvj420p")
    public static let yuv420p10le = PixelFormat("yuv420p10le")
    public static let nv12 = PixelFormat("nv12")
    public static let nv21 = PixelFormat("nv21")
    public static let p010le = PixelFormat("p010le")
    public static let bgra = PixelFormat("bgra")
    public static let rgba = PixelFormat("rgba")

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public init(from decoder: Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }
}
