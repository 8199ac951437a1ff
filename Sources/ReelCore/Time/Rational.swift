/// An exact fraction such as a time base (1/90000), a frame rate (30000/1001) or a
/// sample aspect ratio (4/3).
///
/// A zero denominator means "unknown", as FFmpeg uses `0/0` and `0/1`.
public struct Rational: Hashable, Sendable, TextCodable {
    /// The numerator.
    public var numerator: Int
    /// The denominator; 0 when the value is unknown.
    public var denominator: Int

    /// `numerator/denominator`, kept as given (not reduced).
    public init(_ numerator: Int, _ denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// A value that FFmpeg would print as `0/0` or `0/1`: not known.
    public var isKnown: Bool { numerator != 0 && denominator != 0 }

    /// The value as a `Double`, or `nil` when unknown.
    public var doubleValue: Double? {
        guard denominator != 0 else { return nil }
        return Double(numerator) / Double(denominator)
    }

    /// The fraction turned over: a frame rate becomes a frame duration.
    public var inverted: Rational { Rational(denominator, numerator) }

    /// The same value in lowest terms, with a positive denominator.
    public var reduced: Rational {
        guard denominator != 0 else { return self }
        let divisor = greatestCommonDivisor(numerator, denominator)
        let sign = denominator < 0 ? -1 : 1
        return Rational(sign * numerator / divisor, sign * denominator / divisor)
    }

    /// `num/den`, the form ffprobe prints.
    public var description: String { "\(numerator)/\(denominator)" }

    /// `num:den`, the form ffprobe uses for aspect ratios.
    public var ratioDescription: String { "\(numerator):\(denominator)" }

    /// Parses `num/den` or `num:den`.
    public init?(parsing text: String) {
        let parts = text.split(whereSeparator: { $0 == "/" || $0 == ":" })
        guard parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]) else { return nil }
        self.init(n, d)
    }
}

func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
    var (x, y) = (a.magnitude, b.magnitude)
    while y != 0 { (x, y) = (y, x % y) }
    return x == 0 ? 1 : Int(x)
}
