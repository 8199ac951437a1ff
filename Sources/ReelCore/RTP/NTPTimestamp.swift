/// A 64-bit NTP timestamp (RFC 3550 4, RFC 5905): seconds since 1 January 1900 in the high
/// 32 bits, the fraction of a second in the low 32. RTCP sender reports carry the sender's
/// wall clock in this form.
public struct NTPTimestamp: Sendable, Hashable {
    /// Seconds since 1900 in the high 32 bits, the fraction in the low 32.
    public var value: UInt64

    /// A timestamp as the 64 bits on the wire.
    public init(value: UInt64) {
        self.value = value
    }

    /// Seconds from 1900 to the Unix epoch (1970): 70 years, 17 of them leap.
    public static let unixEpochOffset: UInt64 = 2_208_988_800

    /// The NTP form of a Unix time (seconds since 1970, as `CLOCK_REALTIME` counts them).
    public init(unixSeconds: Double) {
        let seconds = unixSeconds.rounded(.down)
        let fraction = ((unixSeconds - seconds) * 4_294_967_296).rounded()
        value = (UInt64(seconds) + Self.unixEpochOffset) << 32 &+ UInt64(min(fraction, 4_294_967_295))
    }

    /// The same instant in seconds since 1970 (UTC).
    public var unixSeconds: Double {
        Double(Int64(value >> 32) - Int64(Self.unixEpochOffset)) + Double(value & 0xFFFF_FFFF) / 4_294_967_296
    }

    /// The middle 32 bits, which a receiver report echoes as the last sender report's time.
    public var middle32: UInt32 { UInt32(truncatingIfNeeded: value >> 16) }
}
