/// Puts the presentation times of a received stream's access units on one continuous
/// line, from 0, across what would break it: a sender that restarted (new SSRC, sequence
/// and timestamp bases), and RTP timestamps that jump back further than pictures are
/// reordered or forward by more than `maxGap`. A recorder's muxer needs times that never
/// go back past a decode time, and a player's clock cannot wait out a jump of hours.
///
/// After a break the stream goes on one picture after the latest time so far, or, once
/// pictures have come out of presentation order (B-frames), far enough after it that
/// the reordered pictures that follow still come after every earlier decode time.
/// Forward jumps up to `maxGap` are kept: they are time that passed (a network outage),
/// as in the RTP clock. ffmpeg's `dts_delta_threshold` treats jumps over 10 s the same way.
public struct ContinuousTimeline: Sendable {
    /// Ticks per second of the timestamps.
    public let clockRate: Int
    /// The largest forward jump kept, in ticks.
    public let maxGap: Int64
    /// Places a picture may come out of presentation order by (as ``DecodeTimestampGenerator/delay``).
    public let reorderDepth: Int
    private var offset: Int64?
    private var highest: Int64 = 0
    private var last: Int64 = 0
    private var frameDuration: Int64?
    private var reordered = false
    /// Breaks found so far (restarts and jumps).
    public private(set) var breaks = 0

    /// A timeline; `maxGap` in seconds (10 unless told), 0 to a day.
    public init(clockRate: Int, maxGap: Double = 10, reorderDepth: Int = 4) {
        self.clockRate = max(1, clockRate)
        self.maxGap = Int64((maxGap.isNaN ? 0 : min(max(maxGap, 0), 86_400)) * Double(max(1, clockRate)))
        self.reorderDepth = max(0, reorderDepth)
    }

    /// The time on the line, in ticks, of the next access unit (in decoding order):
    /// `timestamp` is its unwrapped RTP timestamp, `restarted` says the sender restarted before it.
    public mutating func time(for timestamp: Int64, restarted: Bool = false) -> Int64 {
        guard let offset else {
            offset = timestamp
            return 0
        }
        var time = timestamp - offset
        let step = frameDuration ?? Int64(clockRate / 25)
        let reorderSpan = Int64(reorderDepth + 1) * step
        if restarted || time < highest - reorderSpan || time > highest + maxGap {
            breaks += 1
            let resume = highest + (reordered ? reorderSpan : step)
            self.offset = timestamp - resume
            time = resume
        } else if time > last, time - last < (frameDuration ?? .max) {
            frameDuration = time - last
        }
        if time < highest { reordered = true }
        highest = max(highest, time)
        last = time
        return time
    }
}
