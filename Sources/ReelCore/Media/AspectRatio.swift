/// The shape of a pixel (sample aspect ratio) or of a picture (display aspect ratio),
/// written `num:den` as ffprobe writes it.
public struct AspectRatio: Hashable, Sendable, TextCodable {
    public var ratio: Rational

    public init(_ numerator: Int, _ denominator: Int) { ratio = Rational(numerator, denominator) }
    public init(_ ratio: Rational) { self.ratio = ratio }

    public init?(parsing text: String) {
        guard let ratio = Rational(parsing: text) else { return nil }
        self.ratio = ratio
    }

    public var description: String { ratio.ratioDescription }
}
