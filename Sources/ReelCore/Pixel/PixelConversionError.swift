/// Why a ``PixelBuffer`` could not be made or converted.
public enum PixelConversionError: Error, Equatable, CustomStringConvertible {
    case invalidSize(width: Int, height: Int)
    case planeMismatch(format: PixelBufferFormat, detail: String)
    case unsupportedFormat(String)
    case unsupportedConversion(from: PixelBufferFormat, to: PixelBufferFormat)
    case cropOutside(PixelRect, width: Int, height: Int)
    case cropNotOnChromaGrid(PixelRect)
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
