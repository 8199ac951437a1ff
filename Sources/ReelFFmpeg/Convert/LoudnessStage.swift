import CFFmpeg
import Foundation
import ReelCore

/// The sound's own filters before it is converted for the device: the user's libavfilter
/// chain (mpv's `--af`), then, when normalizing, libavfilter's `ebur128` measuring the
/// loudness, a `volume` whose gain a ``LoudnessNormalizer`` sets from those measures,
/// and `alimiter` keeping peaks under −1.5 dBFS (a true peak under −1 dBTP).
///
/// The limiter's 5 ms look-ahead is compensated (its first 5 ms are not output), and each
/// frame that comes out is timed by its samples: the media time of the first sample of it
/// that went in, whatever times the filters write. Not `Sendable`: the audio device's
/// thread uses it.
public final class LoudnessStage {
    private let userFilters: String?
    private var normalizer: LoudnessNormalizer?
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private var signature = ""
    private var lastGain = 0.0
    /// The sound gone in and not yet out: the media time of each frame's first sample
    /// still inside, how many of its samples are, and its rate.
    private var inside: [(time: Double, samples: Double, rate: Int)] = []

    /// - Parameters:
    ///   - filters: libavfilter's audio filters, as `ffmpeg -af` takes them; nil for none.
    ///   - normalizer: how to bring the sound to a loudness target; nil not to.
    public init(filters: String?, normalizer: LoudnessNormalizer?) {
        userFilters = filters.flatMap { $0.isEmpty ? nil : $0 }
        self.normalizer = normalizer
    }

    deinit { avfilter_graph_free(&graph) }

    /// The chain as FFmpeg's command line writes it (the gain starting at 0 dB).
    public static func chain(filters: String?, normalizing: Bool) -> String? {
        let parts = [filters, normalizing ? "ebur128=metadata=1,volume@reel_gain=volume=0dB:precision=double,alimiter=limit=0.84:level=false:attack=5:latency=1" : nil]
        let chain = parts.compactMap { $0 }.joined(separator: ",")
        return chain.isEmpty ? nil : chain
    }

    /// The gain the normalizer applies now, dB (0 when not normalizing).
    public var gain: Double { normalizer?.gain ?? 0 }

    /// Checks that `filters` is a chain libavfilter builds, for a clear error before playing.
    public static func validate(_ filters: String) throws {
        let stage = LoudnessStage(filters: filters, normalizer: nil)
        try stage.configure(sampleRate: 48_000, format: "fltp", layout: "stereo")
    }

    /// The frames to play for `frame` (nil at the end: what the filters still hold).
    public func push(_ frame: AudioFrame?) throws -> [AudioFrame] {
        guard let frame else {
            guard let source else { return [] }
            _ = av_buffersrc_add_frame(source, nil)
            return try pull(timeBase: Rational(1, 48_000))
        }
        let layout = frame.channelLayout.contains("channels") ? "\(frame.channelCount)c" : frame.channelLayout
        try configure(sampleRate: frame.sampleRate, format: frame.sampleFormat.rawValue, layout: layout)
        var copy: UnsafeMutablePointer<AVFrame>?
        defer { av_frame_free(&copy) }
        if !(frame.owner is FrameBox) { copy = try AudioConverter.avFrame(copying: frame) }
        guard let input = copy ?? (frame.owner as? FrameBox)?.frame else { throw DecodeError(.other, detail: "out of memory") }
        let code = av_buffersrc_add_frame_flags(source, input, Int32(AV_BUFFERSRC_FLAG_KEEP_REF))
        guard code >= 0 else { throw DecodeError(.other, code: code, detail: "audio filters: \(ffmpegErrorText(code))") }
        if let time = frame.presentationTime?.seconds ?? inside.last.map({ $0.time + $0.samples / Double($0.rate) }) {
            inside.append((time, Double(frame.sampleCount), max(frame.sampleRate, 1)))
        }
        return try pull(timeBase: frame.timeBase)
    }

    /// Forgets the sound inside (a seek); the normalizer's gain stays.
    public func reset() {
        avfilter_graph_free(&graph)
        (source, sink, signature) = (nil, nil, "")
        inside.removeAll()
    }

    private func pull(timeBase: Rational) throws -> [AudioFrame] {
        guard let sink else { return [] }
        var frames: [AudioFrame] = []
        try FilterGraphWiring.drain(sink, what: "audio filters") { output, box in
            follow(output)
            var frame = try AudioFrame(box: box, timeBase: timeBase)
            // More sound out than went in (a user's filter that adds some): the filters' time.
            if let time = takeOut(frame.sampleCount, rate: frame.sampleRate), let unit = timeBase.doubleValue, unit > 0 {
                frame.pts = Int64((time / unit).rounded())
            }
            frames.append(frame)
        }
        return frames
    }

    /// The media time of the next `count` samples out (at `rate`), which leave the inside.
    private func takeOut(_ count: Int, rate: Int) -> Double? {
        let time = inside.first?.time
        var left = Double(count)
        while left > 0, !inside.isEmpty {
            // In the input's samples: a user's filter may change the rate.
            let taken = min(left * Double(inside[0].rate) / Double(max(rate, 1)), inside[0].samples)
            inside[0].samples -= taken
            inside[0].time += taken / Double(inside[0].rate)
            left -= taken * Double(max(rate, 1)) / Double(inside[0].rate)
            if inside[0].samples <= 1e-9 { inside.removeFirst() }
        }
        return time
    }

    /// Feeds `ebur128`'s measures of a frame to the normalizer and sets the gain it says.
    private func follow(_ frame: UnsafeMutablePointer<AVFrame>) {
        guard normalizer != nil, frame.pointee.sample_rate > 0 else { return }
        let measure = { (key: String) in av_dict_get(frame.pointee.metadata, key, nil, 0).flatMap { Double(String(cString: $0.pointee.value)) } ?? -.infinity }
        let seconds = Double(frame.pointee.nb_samples) / Double(frame.pointee.sample_rate)
        let gain = normalizer!.measured(momentary: measure("lavfi.r128.M"), shortTerm: measure("lavfi.r128.S"), seconds: seconds)
        // A command per hundredth of a dB changed, not per frame.
        guard abs(gain - lastGain) >= 0.01 else { return }
        lastGain = gain
        _ = avfilter_graph_send_command(graph, "volume@reel_gain", "volume", String(format: "%.3fdB", gain), nil, 0, 0)
    }

    private func configure(sampleRate: Int, format: String, layout: String) throws {
        guard let chain = Self.chain(filters: userFilters, normalizing: normalizer != nil) else { return }
        let signature = "\(sampleRate) \(format) \(layout)"
        guard signature != self.signature else { return }
        reset()
        let arguments = "time_base=1/\(sampleRate):sample_rate=\(sampleRate):sample_fmt=\(format):channel_layout=\(layout)"
        (graph, source, sink) = try FilterGraphWiring.make(source: "abuffer", arguments: arguments, chain: chain, what: "audio filters")
        self.signature = signature
        // A graph made again (a seek) starts at the gain reached.
        if let graph, normalizer != nil {
            lastGain = gain
            _ = avfilter_graph_send_command(graph, "volume@reel_gain", "volume", String(format: "%.3fdB", gain), nil, 0, 0)
        }
    }
}

@available(*, unavailable, message: "use it from one thread at a time")
extension LoudnessStage: Sendable {}
