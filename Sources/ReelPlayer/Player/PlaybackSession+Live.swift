import Foundation
import ReelCore

extension PlaybackSession {
    /// The live thread: every 50 ms, measures the latency (the live edge, up to where
    /// media was read for every stream played, minus the media played: what is buffered),
    /// reports it, and acts on what ``LiveCatchUp`` decides: a faster rate, the normal one,
    /// or a jump.
    func keepLiveLatency() {
        var catchUp = LiveCatchUp(policy: configuration.liveLatency)
        var lastReport = -Double.infinity
        while !control.read({ $0.aborted }) {
            Thread.sleep(forTimeInterval: 0.05)
            let now = monotonicSeconds()
            let (sample, playing) = control.read { control -> ((latency: Double, edge: Double)?, Bool) in
                let playing = !control.paused && !control.buffering
                guard control.newestRead.serial == control.serial,
                      let edge = control.newestRead.edge(hasVideo: videoStream != nil, hasAudio: audioStream != nil),
                      let played = control.masterTimeUnlocked(master, at: now) else { return (nil, playing) }
                control.statistics.liveLatency = edge - played
                return ((edge - played, edge), playing)
            }
            guard let sample else { continue }
            if now - lastReport >= configuration.timeUpdateInterval {
                lastReport = now
                emit(.liveLatency(sample.latency))
            }
            guard playing else {
                catchUp.restart()
                continue
            }
            switch catchUp.observe(latency: sample.latency, at: now) {
            case .catchUp(let rate):
                control.setCatchUpFactor(rate, at: now)
                control.update { $0.statistics.liveCatchUps += 1 }
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
    }

    /// Goes on from media time `target` at once, on the same timeline: the queued packets
    /// before the newest video keyframe at or before it are dropped (audio up to that
    /// keyframe's time), and what is decoded before `target` is skipped, as an exact seek
    /// skips it. Nothing the reader reads meanwhile is lost.
    private func jump(to target: Double) {
        seekLock.lock()
        defer { seekLock.unlock() }
        do {
            let serial = control.read { $0.serial }
            if videoStream != nil {
                let keyframe = videoPackets.dropBefore { item in
                    guard let packet = item.packet, packet.isKeyframe, let time = packet.presentationTime?.seconds else { return false }
                    return time <= target
                }
                if let time = keyframe?.packet?.presentationTime?.seconds {
                    audioPackets.removeAll { item in item.packet?.endSeconds.map { $0 <= time } ?? false }
                }
            } else {
                audioPackets.removeAll { item in item.packet?.endSeconds.map { $0 <= target } ?? false }
            }
            control.update { control in
                control.exactTarget = (serial, target)
                control.liveJumps += 1
                control.statistics.liveJumps += 1
            }
        }
    }
}
