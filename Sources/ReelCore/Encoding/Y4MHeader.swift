/// The stream header of a YUV4MPEG2 (`.y4m`) file: `YUV4MPEG2 W640 H480 F30000:1001 Ip
/// A1:1 C420jpeg`. Reel reads its 8-bit 4:2:0 flavours.
public struct Y4MHeader: Sendable, Equatable {
    /// Width in pixels (`W`).
    public var width: Int
    /// Height in pixels (`H`).
    public var height: Int
    /// Pictures per second (`F`).
    public var frameRate: Rational
    /// Full with `XCOLORRANGE=FULL` (as ffmpeg writes it), limited otherwise.
    public var range: ColorRange

    /// Lines longer than this are not a y4m header.
    public static let maxLineLength = 1024

    /// - Parameter line: the first line, without its newline.
    public init(line: String) throws {
        let fields = line.split(separator: " ")
        guard fields.first == "YUV4MPEG2" else { throw BitstreamError("not a YUV4MPEG2 file") }
        var width: Int?, height: Int?, rate = Rational(25, 1), colour = "420jpeg", range = ColorRange.limited
        for field in fields.dropFirst() {
            let value = field.dropFirst()
            switch field.first {
            case "W": width = Int(value)
            case "H": height = Int(value)
            case "F":
                let parts = value.split(separator: ":").compactMap { Int($0) }
                guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw BitstreamError("y4m frame rate \(value) is not N:D") }
                rate = Rational(parts[0], parts[1])
            case "C": colour = String(value)
            case "I": guard value == "p" || value == "?" else { throw BitstreamError("interlaced y4m (I\(value)) is not supported") }
            case "X": if value == "COLORRANGE=FULL" { range = .full }
            default: break
            }
        }
        guard let width, let height, width > 0, height > 0, width <= PixelBuffer.maxDimension, height <= PixelBuffer.maxDimension else {
            throw BitstreamError("the y4m header has no valid W and H")
        }
        guard ["420", "420jpeg", "420mpeg2", "420paldv"].contains(colour) else {
            throw BitstreamError("y4m colour space C\(colour) is not supported (8-bit 4:2:0 only)")
        }
        self.width = width
        self.height = height
        frameRate = rate
        self.range = range
    }
}
