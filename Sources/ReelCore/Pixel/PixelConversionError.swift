/// Why a ``PixelBuffer`` could not be made or converted.
public enum PixelConversionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A width or height outside 1 to ``PixelBuffer/maxDimension``, or odd where the chroma grid needs even.
    case invalidSize(width: Int, height: Int)
    /// A plane does not have the size or count the format needs; the detail says which.
    case planeMismatch(format: PixelBufferFormat, detail: String)
    /// A pixel format Reel does not convert, by its FFmpeg name.
    case unsupportedFormat(String)
    /// No conversion between these two formats.
    case unsupportedConversion(from: PixelBufferFormat, to: PixelBufferFormat)
    /// The crop rectangle reaches outside the picture.
    case cropOutside(PixelRect, width: Int, height: Int)
    /// A crop of 4:2:0 must start and end on even pixels.
    case cropNotOnChromaGrid(PixelRect)
    /// The destination buffer's size is not the one the conversion makes.
    case destinationSize(expected: (Int, Int), got: (Int, Int))

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.description == rhs.description }

    public var description: String {
        switch self {
        case .invalidSize(let width, let height): "invalid picture size \(width)x\(height)"
        case .planeMismatch(let format, let detail): "planes do not fit \(format.rawValue): \(detail)"
        case .unsupportedFormat(let name): "pixel format \(name) is not one Reel converts itself"
        case .unsupportedConversion(let from, let to): "no conversion from \(from.rawValue) to \(to.rawValue)"
        case .cropOutside(let rect, let width, let height):
            "crop \(rect.width)x\(rect.height)+\(rect.x)+\(rect.y) is outside the \(width)x\(height) picture"
        case .cropNotOnChromaGrid(let rect): "crop origin \(rect.x),\(rect.y) must be even for 4:2:0 pictures"
        case .destinationSize(let expected, let got): "destination is \(got.0)x\(got.1), the conversion makes \(expected.0)x\(expected.1)"
        }
    }
}
