/// A live video's frame interval from its presentation times alone (RTP gives no
/// durations): the shortest positive step between consecutive times in decoding order,
/// which B-frames' reordering does not lengthen (I0 P3 B1 B2 steps by 1 from B1 to B2).
/// A step of a second or more (a gap, a restart) is not a frame interval.
package struct FrameIntervalEstimate: Sendable {
    private var last: Int64?
    private var shortest: Int64 = 0

    package init() {}

    /// Takes the next time (ticks of `clockRate`) and returns the interval known so far
    /// (0 before two times came); a restarted sender is measured anew.
    package mutating func next(_ time: Int64, restarted: Bool = false, clockRate: Int64) -> Int64 {
        if restarted { (last, shortest) = (nil, 0) }
        if let last, time > last, time - last < clockRate, shortest == 0 || time - last < shortest {
            shortest = time - last
        }
        last = time
        return shortest
    }
}
