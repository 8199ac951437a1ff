/// The shape of a pixel (sample aspect ratio) or of a picture (display aspect ratio),
/// written `num:den` as ffprobe writes it.
public struct AspectRatio: Hashable, Sendable, Codable, CustomStringConvertible {
    public var ratio: Rational

    public init(_ numerator: Int, _ denominator: Int) { ratio = Rational(numerator, denominator) }
    public init(_ ratio: Rational) { self.ratio = ratio }

    public var description: String { ratio.ratioDescription }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Rational(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected num:den, got \(text)")
        }
        ratio = value
    }
}
