/// Turns decoded frames' timestamps into the ones `ffmpeg -f framemd5` writes, so the
/// two outputs can be compared line for line.
///
/// ffmpeg (5.1) shifts every timestamp by the container's start time, then expresses
/// video in ticks of 1/frame-rate (keeping a frame's tick continuous with the previous
/// one unless it is more than 0.6 tick off, and dropping frames that fall 0.6 tick
/// behind) and audio in samples (keeping a frame continuous with the last unless the
/// rounding says otherwise, or the packets have a gap). This is that arithmetic
/// (`do_video_out` and `decode_audio` of fftools/ffmpeg.c), and nothing more.
package struct FrameChecksumClock: Sendable {
    package let outputTimeBase: Rational
    private let inputTimeBase: Rational
    private let offsetTicks: Int64
    private let isAudio: Bool
    private var nextVideoTick: Int64 = 0
    private var lastAudioSample: Int64?
    private var previousPacketPTS: Int64?

    /// - Parameters:
    ///   - videoTimeBase: the time base of the video stream's timestamps.
    ///   - frameRate: the stream's guessed frame rate (`av_guess_frame_rate`).
    ///   - startTime: the container's start time in microseconds.
    package init(videoTimeBase: Rational, frameRate: Rational, startTime: Int64?) {
        inputTimeBase = videoTimeBase
        outputTimeBase = frameRate.isKnown && frameRate.numerator > 0 ? frameRate.inverted.reduced : videoTimeBase
        offsetTicks = Self.offset(startTime, in: videoTimeBase)
        isAudio = false
    }

    package init(audioTimeBase: Rational, sampleRate: Int, startTime: Int64?) {
        inputTimeBase = audioTimeBase
        outputTimeBase = Rational(1, max(sampleRate, 1))
        offsetTicks = Self.offset(startTime, in: audioTimeBase)
        isAudio = true
    }

    /// The output timestamp of the next video frame, or `nil` where ffmpeg drops it.
    package mutating func videoTick(pts: Int64?, durationTicks: Int64) -> Int64? {
        guard let pts else {
            defer { nextVideoTick += 1 }
            return nextVideoTick
        }
        let exact = exactTicks(pts + offsetTicks)
        var duration = Double(durationTicks) * ratio(inputTimeBase, outputTimeBase)
        duration = duration.rounded(.toNearestOrEven) > 0 ? duration.rounded(.toNearestOrEven) : 1
        var delta0 = exact - Double(nextVideoTick)
        var delta = delta0 + duration
        var syncPoint = exact
        if delta0 < 0 && delta > 0 {
            syncPoint = Double(nextVideoTick)
            duration += delta0
            delta0 = 0
            delta = duration
        }
        if delta <= -0.6 { return nil }
        if delta > 0.6 { nextVideoTick = Int64(syncPoint.rounded(.toNearestOrEven)) }
        defer { nextVideoTick += 1 }
        return nextVideoTick
    }

    /// The output timestamp of the next audio frame of `sampleCount` samples.
    ///
    /// - Parameters:
    ///   - pts: the frame's own timestamp, when the decoder gave one.
    ///   - sampleCount: the samples in the frame.
    ///   - packet: the timing of the packet just sent to the decoder, for the first frame
    ///     that came out after it; `nil` for the frames after that.
    package mutating func audioTick(pts: Int64?, sampleCount: Int, packet: (pts: Int64?, duration: Int64)? = nil) -> Int64 {
        if let packet {
            // A gap between packets larger than a packet: start afresh from the timestamp.
            if let packetPTS = packet.pts, let previous = previousPacketPTS, packet.duration > 0, packetPTS - previous > packet.duration {
                lastAudioSample = nil
            }
            previousPacketPTS = packet.pts
        }
        guard let pts = pts ?? packet?.pts else {
            let tick = lastAudioSample ?? 0
            lastAudioSample = tick + Int64(sampleCount)
            return tick
        }
        let shifted = pts + offsetTicks
        let simple = Self.rescale(shifted, from: inputTimeBase, to: outputTimeBase, rounding: .toNearestOrAwayFromZero)
        // av_rescale_delta: keep the frame contiguous with the last when its own
        // timestamp is too coarse to say otherwise.
        guard let last = lastAudioSample, sampleCount > 0,
              Int128(inputTimeBase.numerator) * Int128(outputTimeBase.denominator) > Int128(outputTimeBase.numerator) * Int128(inputTimeBase.denominator) else {
            lastAudioSample = simple + Int64(sampleCount)
            return simple
        }
        let low = Self.rescale(2 * shifted - 1, from: inputTimeBase, to: outputTimeBase, rounding: .down) >> 1
        let high = (Self.rescale(2 * shifted + 1, from: inputTimeBase, to: outputTimeBase, rounding: .up) + 1) >> 1
        guard last >= 2 * low - high, last <= 2 * high - low else {
            lastAudioSample = simple + Int64(sampleCount)
            return simple
        }
        let tick = min(max(last, low), high)
        lastAudioSample = tick + Int64(sampleCount)
        return tick
    }

    /// `ticks` in the output time base, with ffmpeg's extra precision and its nudge off
    /// exact midpoints.
    private func exactTicks(_ ticks: Int64) -> Double {
        let log2Denominator = Int.bitWidth - 1 - outputTimeBase.denominator.leadingZeroBitCount
        let extraBits = min(max(29 - log2Denominator, 0), 16)
        let fine = Rational(outputTimeBase.numerator, outputTimeBase.denominator << extraBits)
        var exact = Double(Self.rescale(ticks, from: inputTimeBase, to: fine, rounding: .toNearestOrAwayFromZero))
        exact /= Double(1 << extraBits)
        return exact + (exact > 0 ? 1 : exact < 0 ? -1 : 0) / Double(1 << 17)
    }

    private func ratio(_ a: Rational, _ b: Rational) -> Double {
        (a.doubleValue ?? 0) / (b.doubleValue ?? 1)
    }

    private static func offset(_ startTime: Int64?, in timeBase: Rational) -> Int64 {
        guard let startTime else { return 0 }
        return rescale(-startTime, from: Rational(1, 1_000_000), to: timeBase, rounding: .toNearestOrAwayFromZero)
    }

    /// `ticks` of `from` in ticks of `to` (FFmpeg's `av_rescale_q_rnd`).
    static func rescale(_ ticks: Int64, from: Rational, to: Rational, rounding: FloatingPointRoundingRule) -> Int64 {
        MediaTime.rescale(ticks, from: Int128(from.denominator) * Int128(to.numerator),
                          to: Int128(from.numerator) * Int128(to.denominator), rounding: rounding)
    }
}
