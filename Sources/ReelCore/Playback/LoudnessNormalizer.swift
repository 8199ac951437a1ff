import Foundation

/// A gain that brings sound to a loudness target (EBU R128, −16 LUFS by default, the
/// level streaming services and speech use) as it plays, without looking ahead: the
/// gain follows the loudness measured so far, falling fast when the sound gets louder
/// and rising slowly when it gets quieter, so that no added delay is needed.
///
/// The measurements are EBU R128's momentary loudness (the last 400 ms) and short-term
/// loudness (the last 3 s), as libavfilter's `ebur128` gives them. Pure: the caller says
/// how much sound went by between measurements.
public struct LoudnessNormalizer: Sendable, Equatable {
    /// The loudness aimed at, LUFS.
    public var target: Double
    /// The most the gain lifts quiet sound, dB (a whisper is not made a shout).
    public var maximumGain: Double
    /// The most the gain lowers loud sound, dB.
    public var minimumGain: Double
    /// Seconds for the gain to go most of the way down to a louder passage's.
    public var attack: Double
    /// Seconds for the gain to go most of the way up to a quieter passage's.
    public var release: Double
    /// How far above the target the momentary loudness may go before it, rather than
    /// the short-term loudness, sets the gain, dB: speech and music are louder over
    /// 400 ms than over 3 s, and only a real jump should act at once.
    public var momentaryHeadroom: Double
    /// Below this loudness (LUFS) the sound is silence or near it: the gain holds, as
    /// EBU R128's absolute gate leaves such blocks out.
    public var silence: Double
    /// The gain now, dB.
    public private(set) var gain = 0.0

    /// A normalizer to `target` LUFS.
    public init(target: Double = -16, maximumGain: Double = 20, minimumGain: Double = -30,
                attack: Double = 0.15, release: Double = 1.5, momentaryHeadroom: Double = 3, silence: Double = -50) {
        self.target = target
        self.maximumGain = maximumGain
        self.minimumGain = minimumGain
        self.attack = attack
        self.release = release
        self.momentaryHeadroom = momentaryHeadroom
        self.silence = silence
    }

    /// The gain after `seconds` of sound measured at `momentary` and `shortTerm`
    /// loudness (LUFS; not finite before there is any).
    ///
    /// The short-term measure sets the gain that brings it to the target; a momentary
    /// one more than ``momentaryHeadroom`` above the target lowers it further at once (a
    /// loud passage is caught within 400 ms, not after 3 s).
    @discardableResult
    public mutating func measured(momentary: Double, shortTerm: Double, seconds: Double) -> Double {
        guard seconds > 0, seconds.isFinite else { return gain }
        let silence = silence
        let heard = { (loudness: Double) in loudness.isFinite && loudness > silence }
        var wanted = heard(shortTerm) ? target - shortTerm : nil
        if heard(momentary) { wanted = min(wanted ?? .infinity, target + momentaryHeadroom - momentary) }
        guard let wanted else { return gain }
        let desired = min(max(wanted, minimumGain), maximumGain)
        let time = desired < gain ? attack : release
        gain += (desired - gain) * (1 - exp(-seconds / max(time, 1e-3)))
        return gain
    }
}

/// When sound is brought to a loudness target (``LoudnessNormalizer``).
public enum LoudnessNormalization: String, Sendable, CaseIterable {
    /// Live inputs only (streams, whose sources are levelled by no one); files play as
    /// they were mastered.
    case auto
    /// Every input.
    case on
    /// Never.
    case off
}
