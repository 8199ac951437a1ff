import ReelPlayer

/// The oracle of the flash-and-beep clip (``Fixtures/flashAndBeep(seconds:)``): when each
/// white flash was put on screen and each beep was consumed by the device, read from what
/// the headless outputs logged on their shared monotonic device clock, not from the
/// player's own clocks.
struct FlashBeepSync {
    /// Device times of the first bright frame after a dark one.
    var flashes: [Double] = []
    /// Device times of the first loud sample after 0.3 s of quiet.
    var beeps: [Double] = []

    /// None yet.
    init() {}

    /// The flashes and beeps of `video` and `audio` (made with `measureLuma` and
    /// `keepSamples`) from device time `start` on.
    init(video: HeadlessVideoOutput, audio: HeadlessAudioOutput, from start: Double = -.infinity) {
        var wasBright = false
        for shown in video.presentations {
            let bright = shown.meanLuma > 128
            if bright && !wasBright && shown.deviceTime >= start { flashes.append(shown.deviceTime) }
            wasBright = bright
        }
        let pulls = audio.pullLog
        var quietSince = -1_000_000
        for (index, sample) in audio.consumedSamples.enumerated() where abs(sample) > 0.05 {
            if index - quietSince > 14_400, let pull = pulls.last(where: { $0.sampleIndex <= index }) {
                let heard = pull.deviceTime + Double(index - pull.sampleIndex) / 48000
                if heard >= start { beeps.append(heard) }
            }
            quietSince = index
        }
    }

    /// Each flash minus the beep nearest to it, seconds: positive when the picture is late.
    var offsets: [Double] {
        flashes.compactMap { flash in beeps.min(by: { abs($0 - flash) < abs($1 - flash) }).map { flash - $0 } }
    }
}
