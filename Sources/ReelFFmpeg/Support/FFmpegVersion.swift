import CFFmpeg
import ReelCore

/// Versions of the FFmpeg libraries Reel runs on.
public enum FFmpegVersion {
    /// `Lavf59.27.100`, as FFmpeg's tools name libavformat in their output.
    public static var libavformat: String {
        let version = avformat_version()
        return "Lavf\(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF)"
    }

    /// `Lavc59.37.100`, as FFmpeg's tools name libavcodec in their output.
    public static var libavcodec: String {
        let version = avcodec_version()
        return "Lavc\(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF)"
    }
}
