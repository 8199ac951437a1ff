/// Keeps a live input's latency on target, from samples of it taken while playing: decides
/// when to play faster, when to go back to normal, and when to jump (pure: the session acts).
///
/// The latency of a sample is the newest media received minus the media being played; it
/// moves by a packet's length each time one arrives, so the decision to catch up or jump
/// is taken on its lowest value over the last second (what could be dropped without
/// running dry), and the return to normal on the latest one.
package struct LiveCatchUp: Sendable {
    package enum Action: Sendable, Equatable {
        case catchUp(rate: Double)
        case backOnTarget
        case jump
    }

    package let policy: LiveLatency
    /// The samples of the last `window` seconds: (monotonic time, latency).
    private var samples: [(time: Double, latency: Double)] = []
    package private(set) var isCatchingUp = false
    private var hasPlayed = false
    package static let window = 1.0

    package init(policy: LiveLatency) {
        self.policy = policy
    }

    /// Forgets the samples: after a pause, a seek or a jump the latency is measured anew.
    package mutating func restart() {
        samples.removeAll()
    }

    /// Takes the latency measured while playing at `now` (monotonic seconds) and returns
    /// what to do, if anything.
    package mutating func observe(latency: Double, at now: Double) -> Action? {
        samples.append((now, latency))
        samples.removeAll { $0.time < now - Self.window }
        let firstPlay = !hasPlayed
        hasPlayed = true
        // No pre-roll beyond the target: the backlog an opening gathered goes at once.
        if firstPlay && latency > policy.target + policy.slack { return jumped() }
        guard let oldest = samples.first, now - oldest.time >= Self.window * 0.9 else {
            return isCatchingUp && latency <= policy.target ? backOnTarget() : nil
        }
        let floor = samples.map(\.latency).min() ?? latency
        if floor > policy.jumpAbove { return jumped() }
        if !isCatchingUp && floor > policy.target + policy.slack {
            isCatchingUp = true
            return .catchUp(rate: policy.catchUpRate)
        }
        if isCatchingUp && latency <= policy.target { return backOnTarget() }
        return nil
    }

    private mutating func jumped() -> Action {
        restart()
        isCatchingUp = false
        return .jump
    }

    private mutating func backOnTarget() -> Action {
        isCatchingUp = false
        return .backOnTarget
    }
}
