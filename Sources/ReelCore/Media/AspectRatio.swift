/// The shape of a pixel (sample aspect ratio) or of a picture (display aspect ratio),
/// written `num:den` as ffprobe writes it.
public struct AspectRatio: Hashable, Sendable, TextCodable {
    /// The ratio; `0:1` means unknown, as FFmpeg writes it.
    public var ratio: Rational

    /// `numerator:denominator`.
    public init(_ numerator: Int, _ denominator: Int) { ratio = Rational(numerator, denominator) }
    /// A ratio from a rational.
    public init(_ ratio: Rational) { self.ratio = ratio }

    /// Reads `num:den` (or `num/den`); `nil` when malformed.
    public init?(parsing text: String) {
        guard let ratio = Rational(parsing: text) else { return nil }
        self.ratio = ratio
    }

    public var description: String { ratio.ratioDescription }
}
