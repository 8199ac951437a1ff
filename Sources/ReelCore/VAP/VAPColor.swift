/// A text colour as VAP writes it: `#RRGGBB`, or `#AARRGGBB` with alpha first.
public struct VAPColor: Sendable, Equatable {
    /// The channels, 0–255, not premultiplied.
    public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8

    /// A colour, opaque unless told.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from `#RRGGBB` or `#AARRGGBB` (VAP's text colours); `nil` when malformed.
    public init?(hex: String) {
        guard hex.hasPrefix("#"), let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        switch hex.count {
        case 7: self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
        case 9: self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF), alpha: UInt8(value >> 24))
        default: return nil
        }
    }

    /// Opaque white: VAP's text colour when a source names none.
    public static let white = VAPColor(red: 255, green: 255, blue: 255)
}
