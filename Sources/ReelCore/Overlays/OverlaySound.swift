/// The sound of an animation over a player's picture (a gift's), in the format of the sound
/// card it is mixed into: interleaved float, its first sample heard with the animation's
/// first frame.
public struct OverlaySound: Sendable {
    /// The format of ``samples``.
    public let format: AudioDeviceFormat
    /// Interleaved samples.
    public let samples: [Float]

    /// A sound.
    public init(format: AudioDeviceFormat, samples: [Float]) {
        self.format = format
        self.samples = samples
    }

    /// Adds to `output` (interleaved in ``format``) the sound heard over its first `frames`
    /// frames while `entry` plays: the first heard at `position` on the player's time, each
    /// next `step` seconds of that time later (1 / the rate at normal speed; faster speeds
    /// skip samples, as a pitch rises). Each loop plays the sound from its start, cut at the
    /// loop's end; before the animation's start and after its last loop nothing is added.
    public func mix(into output: UnsafeMutableBufferPointer<Float>, frames: Int, from position: Double, step: Double,
                    playing entry: OverlaySchedule.Entry) {
        let channels = format.channels, rate = Double(format.sampleRate)
        let soundFrames = samples.count / max(channels, 1)
        let loopSeconds = Double(entry.frameCount) / entry.framesPerSecond
        let end = entry.loops > 0 ? Double(entry.loops) * loopSeconds : .infinity
        guard soundFrames > 0, frames * channels <= output.count else { return }
        samples.withUnsafeBufferPointer { source in
            for frame in 0..<frames {
                // A hair short of a sample's time is that sample (sums of steps drift by ulps).
                let elapsed = position + Double(frame) * step - entry.start + 1e-9
                guard elapsed >= 0, elapsed < end else { continue }
                let index = Int((elapsed.truncatingRemainder(dividingBy: loopSeconds) * rate + 1e-6).rounded(.down))
                guard index < soundFrames else { continue }
                for channel in 0..<channels { output[frame * channels + channel] += source[index * channels + channel] }
            }
        }
    }
}
