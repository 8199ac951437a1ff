/// Decode times for pictures that arrive with presentation times only, as RTP carries
/// them. With B-frames, presentation times go back and forth in decoding order; the i-th
/// decode time is the (i − delay)-th smallest presentation time, which is never after the
/// picture's own when pictures are reordered by at most `delay` places. The first `delay`
/// pictures count back from the first presentation time by `frameDuration` each.
public struct DecodeTimestampGenerator: Sendable {
    /// Places a picture may be reordered by (B-frame depth); 4 covers x264's and x265's defaults.
    public let delay: Int
    private var pending: [Int64] = []
    private var count = 0
    private var first: Int64?
    private var last: Int64?

    /// Ticks between pictures, for the first `delay` decode times.
    public let frameDuration: Int64

    /// A generator; a negative delay counts as 0, a duration below 1 as 1.
    public init(delay: Int = 4, frameDuration: Int64 = 1) {
        self.delay = max(0, delay)
        self.frameDuration = max(1, frameDuration)
    }

    /// The decode time of the next picture in decoding order, given its presentation time.
    public mutating func decodeTime(forPresentationTime pts: Int64) -> Int64 {
        let index = pending.firstIndex { $0 > pts } ?? pending.endIndex
        pending.insert(pts, at: index)
        let origin = first ?? pts
        first = origin
        var dts = count < delay ? origin - Int64(delay - count) * frameDuration : pending.removeFirst()
        count += 1
        if let last, dts <= last { dts = last + 1 }
        last = dts
        return dts
    }
}
