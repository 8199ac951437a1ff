/// The frequency of a tone in `samples` of one channel at `rate` per second, by counting
/// its upward zero crossings.
func toneFrequency(_ samples: some Collection<Float>, rate: Double) -> Double {
    let crossings = zip(samples, samples.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
    return Double(crossings) / (Double(samples.count) / rate)
}

/// The first channel of `channels` interleaved ones.
func firstChannel(_ samples: ArraySlice<Float>, of channels: Int) -> [Float] {
    stride(from: samples.startIndex, to: samples.endIndex - (channels - 1), by: channels).map { samples[$0] }
}
