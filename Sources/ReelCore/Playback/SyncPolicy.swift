/// When to show the next video frame, following ffplay's `compute_target_delay`.
///
/// The frame's nominal delay (its duration) is stretched or shrunk by how far video runs
/// from the master clock, inside a threshold that scales with the frame duration.
///
/// Below that threshold ffplay leaves a drift alone for ever: after an audio underrun the
/// audio clock falls back by the silence played, and video stays that far ahead (30 ms
/// is invisible to ffplay's 40 ms threshold, but a viewer sees it). Reel takes a tenth of
/// such a drift off each frame's delay, so it fades within a second without a jump.
package enum SyncPolicy {
    /// Below this drift (seconds) ffplay makes no correction and Reel only the gentle one
    /// (ffplay `AV_SYNC_THRESHOLD_MIN`).
    package static let minThreshold = 0.04
    /// Above this drift a correction is always made (`AV_SYNC_THRESHOLD_MAX`).
    package static let maxThreshold = 0.1
    /// A frame longer than this is not duplicated to catch up (`AV_SYNC_FRAMEDUP_THRESHOLD`).
    package static let frameDuplicationThreshold = 0.1
    /// Past this drift the clocks are considered unrelated and not corrected (`AV_NOSYNC_THRESHOLD`).
    package static let noSyncThreshold = 10.0
    /// The part of a drift below the threshold that one frame's delay takes off.
    package static let gentleCorrection = 0.1
    /// A drift smaller than this is clock noise, left alone.
    package static let gentleCorrectionFloor = 0.003

    /// The delay before showing the next frame.
    /// - Parameters:
    ///   - nominal: the previous frame's duration, seconds.
    ///   - drift: video clock minus master clock, seconds (`nil` when video is master).
    package static func targetDelay(nominal: Double, drift: Double?) -> Double {
        guard let drift, !drift.isNaN, abs(drift) < noSyncThreshold else { return nominal }
        let threshold = max(minThreshold, min(maxThreshold, nominal))
        if drift <= -threshold { return max(0, nominal + drift) }
        if drift >= threshold && nominal > frameDuplicationThreshold { return nominal + drift }
        if drift >= threshold { return 2 * nominal }
        if abs(drift) > gentleCorrectionFloor { return nominal + gentleCorrection * drift }
        return nominal
    }

    /// Whether a frame already late by more than its own duration should be dropped
    /// (ffplay's `framedrop` rule: only when video is not the master clock).
    package static func shouldDrop(frameEnd: Double, now: Double, isVideoMaster: Bool) -> Bool {
        !isVideoMaster && now > frameEnd
    }
}
