/// The rate a VAP animation plays at, chosen as VAP chooses it.
package enum VAPFrameRate {
    /// The caller's rate when it is 1–60, else the `vapc` rate, else frames over duration,
    /// else 20.
    package static func choose(requested: Int?, config: Int?, samples: Double?) -> Double {
        if let requested, (1...60).contains(requested) { return Double(requested) }
        if let config, config > 0 { return Double(config) }
        if let samples, samples.isFinite, samples > 0 { return samples }
        return 20
    }
}
