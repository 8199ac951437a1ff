/// The text layout of FFmpeg's `framemd5` muxer (version 2), so that Reel's per-frame
/// checksums can be compared line for line with `ffmpeg -f framemd5`.
public enum FrameChecksumLog {
    /// What the header says about the one stream being hashed.
    public enum StreamHeader: Sendable {
        /// A video stream: `#tb`, `#media_type video`, `#dimensions`, `#sar`.
        case video(timeBase: Rational, width: Int, height: Int, sampleAspectRatio: Rational)
        /// An audio stream: `#tb`, `#media_type audio`, `#codec_id`, `#sample_rate`, `#channel_layout`.
        case audio(timeBase: Rational, codecName: String, sampleRate: Int, channelLayout: String)
    }

    /// The header lines `ffmpeg -f framemd5` writes before the first frame, `software` naming the writer.
    public static func header(for stream: StreamHeader, software: String) -> [String] {
        var lines = ["#format: frame checksums", "#version: 2", "#hash: MD5", "#software: \(software)"]
        switch stream {
        case let .video(timeBase, width, height, sar):
            lines += ["#tb 0: \(timeBase)", "#media_type 0: video", "#codec_id 0: rawvideo",
                      "#dimensions 0: \(width)x\(height)", "#sar 0: \(sar)"]
        case let .audio(timeBase, codecName, sampleRate, channelLayout):
            lines += ["#tb 0: \(timeBase)", "#media_type 0: audio", "#codec_id 0: \(codecName)",
                      "#sample_rate 0: \(sampleRate)", "#channel_layout_name 0: \(channelLayout)"]
        }
        lines.append("#stream#, dts,        pts, duration,     size, hash")
        return lines
    }

    /// One frame: `0,          0,          0,        1,   115200, 7e4a…` (the widths of
    /// the muxer's `%10`, `%10`, `%8`, `%8` fields).
    public static func row(pts: Int64, duration: Int64, size: Int, hash: String) -> String {
        "0, \(padded(pts, 10)), \(padded(pts, 10)), \(padded(duration, 8)), \(padded(Int64(size), 8)), \(hash)"
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
