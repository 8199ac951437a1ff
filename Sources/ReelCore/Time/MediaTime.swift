/// A point or span on a media timeline, held exactly as `value / timescale` seconds,
/// in the manner of CoreMedia's `CMTime`.
///
/// Arithmetic is exact: two times with different timescales are brought to their least
/// common timescale (with 128-bit intermediates) and only fall back to rounding when
/// that timescale would not fit. Seconds as `Double` are for display and user input.
public struct MediaTime: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Ticks of `1/timescale` seconds.
    public var value: Int64
    /// Ticks per second.
    public var timescale: Int32

    /// Creates `value / timescale` seconds. `timescale` must be positive.
    public init(value: Int64, timescale: Int32) {
        precondition(timescale > 0, "MediaTime timescale must be positive")
        self.value = value
        self.timescale = timescale
    }

    /// Time zero.
    public static let zero = MediaTime(value: 0, timescale: 1)

    /// `ticks` counted in units of `timeBase` (FFmpeg's `pts * time_base`).
    /// Returns `nil` when the time base is unknown or too fine to hold exactly.
    public init?(ticks: Int64, timeBase: Rational) {
        guard timeBase.numerator > 0, timeBase.denominator > 0,
              timeBase.denominator <= Int(Int32.max) else { return nil }
        let product = ticks.multipliedReportingOverflow(by: Int64(timeBase.numerator))
        guard !product.overflow else { return nil }
        self.init(value: product.partialValue, timescale: Int32(timeBase.denominator))
    }

    /// The nearest time to `seconds` at `timescale` ticks per second.
    public init(seconds: Double, timescale: Int32 = 1_000_000) {
        self.init(value: Int64((seconds * Double(timescale)).rounded()), timescale: timescale)
    }

    /// The time in seconds (rounded to a `Double`).
    public var seconds: Double { Double(value) / Double(timescale) }

    /// This time in another timescale, rounded as asked (to nearest by default,
    /// halves away from zero, as FFmpeg's `av_rescale`).
    public func converted(to newTimescale: Int32, rounding: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> MediaTime {
        MediaTime(value: Self.rescale(value, from: Int128(timescale), to: Int128(newTimescale), rounding: rounding),
                  timescale: newTimescale)
    }

    /// Ticks of `timeBase` nearest this time: the inverse of ``init(ticks:timeBase:)``.
    public func ticks(in timeBase: Rational, rounding: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int64 {
        precondition(timeBase.numerator > 0 && timeBase.denominator > 0, "time base must be positive")
        return Self.rescale(value, from: Int128(timescale) * Int128(timeBase.numerator),
                            to: Int128(timeBase.denominator), rounding: rounding)
    }

    /// `value * to / from`, rounded, saturating at the bounds of `Int64`.
    static func rescale(_ value: Int64, from: Int128, to: Int128, rounding: FloatingPointRoundingRule) -> Int64 {
        let numerator = Int128(value) * to
        var quotient = numerator / from
        let remainder = numerator % from
        if remainder != 0 {
            let negative = (numerator < 0) != (from < 0)
            let twiceRemainder = remainder.magnitude * 2
            switch rounding {
            case .down: if negative { quotient -= 1 }
            case .up: if !negative { quotient += 1 }
            case .towardZero: break
            case .awayFromZero: quotient += negative ? -1 : 1
            case .toNearestOrEven:
                if twiceRemainder > from.magnitude || (twiceRemainder == from.magnitude && quotient % 2 != 0) {
                    quotient += negative ? -1 : 1
                }
            default:
                if twiceRemainder >= from.magnitude { quotient += negative ? -1 : 1 }
            }
        }
        return Int64(clamping: quotient)
    }

    private static func commonTimescale(_ a: Int32, _ b: Int32) -> Int32 {
        if a == b { return a }
        let lcm = Int64(a) / Int64(greatestCommonDivisor(Int(a), Int(b))) * Int64(b)
        return lcm <= Int64(Int32.max) ? Int32(lcm) : max(a, b)
    }

    /// The sum, in a timescale both divide (else the finer one); saturates instead of overflowing.
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        let scale = commonTimescale(lhs.timescale, rhs.timescale)
        let sum = lhs.converted(to: scale).value.addingReportingOverflow(rhs.converted(to: scale).value)
        return MediaTime(value: sum.overflow ? (lhs.value < 0 ? .min : .max) : sum.partialValue, timescale: scale)
    }

    /// The difference, in a timescale both divide (else the finer one); saturates.
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        lhs + MediaTime(value: rhs.value == .min ? .max : -rhs.value, timescale: rhs.timescale)
    }

    /// Multiplies by an exact fraction (a playback rate, a frame count).
    public func multiplied(by factor: Rational) -> MediaTime {
        precondition(factor.denominator != 0, "factor denominator must not be zero")
        let scaled = Self.rescale(value, from: Int128(factor.denominator), to: Int128(factor.numerator), rounding: .toNearestOrAwayFromZero)
        return MediaTime(value: scaled, timescale: timescale)
    }

    /// Seconds with microsecond precision, as `ffprobe` prints them (`"12.345678"`).
    public var description: String { Self.formatSeconds(seconds) }

    /// Seconds with microsecond precision, as ffprobe prints them (`"12.345678"`).
    public static func formatSeconds(_ seconds: Double) -> String {
        let micro = Int64((seconds * 1_000_000).rounded())
        let sign = micro < 0 ? "-" : ""
        let whole = micro.magnitude / 1_000_000
        let fraction = String(micro.magnitude % 1_000_000)
        return "\(sign)\(whole).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }
}

extension MediaTime: Comparable {
    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        Int128(lhs.value) * Int128(rhs.timescale) == Int128(rhs.value) * Int128(lhs.timescale)
    }

    public func hash(into hasher: inout Hasher) {
        let divisor = Int64(greatestCommonDivisor(Int(value), Int(timescale)))
        hasher.combine(value / divisor)
        hasher.combine(Int64(timescale) / divisor)
    }

    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        Int128(lhs.value) * Int128(rhs.timescale) < Int128(rhs.value) * Int128(lhs.timescale)
    }
}
