/// RTP's 32-bit timestamps as a 64-bit timeline. Each step is taken as the signed 32-bit
/// difference from the previous packet, so a timestamp going back (B-frames sent before the
/// pictures they precede in time) moves back instead of wrapping forward.
public struct RTPTimestampUnwrapper: Sendable {
    private var last: UInt32?
    private var extended: Int64 = 0

    /// An unwrapper that has seen no timestamp yet.
    public init() {}

    /// The timestamp extended to 64 bits, counting wraps both ways from the first one seen.
    public mutating func unwrap(_ timestamp: UInt32) -> Int64 {
        if let last {
            extended += Int64(Int32(bitPattern: timestamp &- last))
        } else {
            extended = Int64(timestamp)
        }
        last = timestamp
        return extended
    }
}
