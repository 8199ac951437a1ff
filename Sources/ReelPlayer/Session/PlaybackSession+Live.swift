import Foundation
import ReelCore

/// What the live thread remembers between its looks.
struct LiveLatencyKeeper {
    /// How often the live thread looks.
    static let interval = 0.05
    var catchUp: LiveCatchUp
    var lastReport = -Double.infinity

    init(policy: LiveLatency) { catchUp = LiveCatchUp(policy: policy) }
}

extension PlaybackSession {
    /// The live thread: every 50 ms, measures the latency (the live edge, up to where
    /// media was read or kept for every stream played, minus the media played),
    /// reports it, and acts on what ``LiveCatchUp`` decides: a faster rate, the normal one,
    /// or a jump.
    func keepLiveLatency() {
        var keeper = LiveLatencyKeeper(policy: configuration.liveLatency)
        var next = clock.now + LiveLatencyKeeper.interval
        while !control.read({ $0.aborted }) {
            // The stop wakes it (it sets `aborted` before it takes `liveWake`).
            liveWake.withLock { if !control.read({ $0.aborted }) { clock.wait(on: liveWake, until: next) } }
            let now = clock.now
            guard now >= next else { continue }
            keepLiveLatency(&keeper, at: now)
            next = now + LiveLatencyKeeper.interval
        }
    }

    /// One look of the live thread at time `now`.
    func keepLiveLatency(_ keeper: inout LiveLatencyKeeper, at now: Double) {
        // Through a timeshift, the live edge is the newest media kept, not the newest read.
        let keptEdge = engine.timeshift?.liveEdge(of: playedStreams)
        let (sample, playing) = control.record { control -> ((latency: Double, edge: Double)?, Bool) in
            let playing = !control.paused && !control.buffering
            guard control.newestRead.serial == control.serial,
                  let edge = keptEdge ?? control.newestRead.edge(hasVideo: videoStream != nil, hasAudio: audioStream != nil),
                  let played = control.masterTimeUnlocked(master, at: now) else { return (nil, playing && !control.behindLiveOnPurpose) }
            // A viewer behind on purpose who has played back up to the target is live again.
            if control.behindLiveOnPurpose && playing && edge - played <= configuration.liveLatency.target {
                control.behindLiveOnPurpose = false
            }
            control.statistics.liveLatency = edge - played
            return ((edge - played, edge), playing && !control.behindLiveOnPurpose)
        }
        guard let sample else { return }
        if now - keeper.lastReport >= configuration.timeUpdateInterval {
            keeper.lastReport = now
            emit(.liveLatency(sample.latency))
        }
        // Paused, buffering, or behind on purpose inside a timeshift: nothing to catch up.
        guard playing else {
            keeper.catchUp.restart()
            return
        }
        switch keeper.catchUp.observe(latency: sample.latency, at: now) {
        case .catchUp(let rate):
            control.setCatchUpFactor(rate, at: now)
            control.record { $0.statistics.liveCatchUps += 1 }
            emit(.liveAdjusted(.catchingUp(latency: sample.latency, rate: rate)))
        case .backOnTarget:
            control.setCatchUpFactor(1, at: now)
            emit(.liveAdjusted(.onTarget(latency: sample.latency)))
        case .jump:
            control.setCatchUpFactor(1, at: now)
            jump(to: sample.edge - configuration.liveLatency.target)
            emit(.liveAdjusted(.jumped(latency: sample.latency)))
        case nil:
            break
        }
    }

    /// Goes on from media time `target` at once, on the same timeline: the queued packets
    /// before the newest video keyframe at or before it are dropped (audio up to that
    /// keyframe's time), and what is decoded before `target` is skipped, as an exact seek
    /// skips it. Nothing the reader reads meanwhile is lost.
    private func jump(to target: Double) {
        seekLock.lock()
        defer { seekLock.unlock() }
        engine.skipQueued(before: target)
        let timeshifted = engine.timeshift != nil
        control.update { control in
            control.exactTarget = (control.serial, target)
            control.liveJumps += 1
            control.statistics.liveJumps += 1
            // A timeshift's reader moved on over what it kept: what it reads next is no
            // jump of the sender's timestamps.
            if timeshifted { control.newestRead = PlaybackControl.NewestRead(serial: control.serial) }
        }
    }
}
