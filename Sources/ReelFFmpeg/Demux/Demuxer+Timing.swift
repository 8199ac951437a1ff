import CFFmpeg
import ReelCore

extension Demuxer {
    /// The frame rate ffmpeg assumes for a video stream (`av_guess_frame_rate`).
    public func guessedFrameRate(ofStream index: Int) -> Rational {
        guard let stream = stream(at: index) else { return Rational(0, 1) }
        return Rational(av_guess_frame_rate(context, stream, nil))
    }

    /// Where the timeline starts, in microseconds, when only `streams` are read: the
    /// container's start time, except that for formats whose timestamps may jump
    /// (MPEG-TS and kin) the streams left out do not count, as in ffmpeg.
    public func startTimeMicroseconds(readingOnly streams: [Int]) -> Int64? {
        guard let start = startTimeMicroseconds else { return nil }
        guard let format = context.pointee.iformat, format.pointee.flags & AVFMT_TS_DISCONT != 0 else { return start }
        let starts = streams.compactMap { index -> Int64? in
            guard let stream = stream(at: index), stream.pointee.start_time != FFmpegCode.noPTS else { return nil }
            return av_rescale_q(stream.pointee.start_time, stream.pointee.time_base, AVRational(num: 1, den: AV_TIME_BASE))
        }
        return max(start, starts.min() ?? start)
    }
}
