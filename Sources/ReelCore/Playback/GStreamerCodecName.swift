/// FFmpeg's name for the codec a GStreamer caps structure describes (`video/x-h264` is
/// `h264`, `audio/mpeg` of MPEG version 4 is `aac`), so that tracks read the same
/// whichever engine lists them.
public enum GStreamerCodecName {
    /// The name for caps named `mediaType`, with their `mpegversion` and `layer` fields
    /// where they have them; a type not listed keeps its subtype without `x-`.
    public static func ffmpegName(mediaType: String, mpegVersion: Int? = nil, layer: Int? = nil) -> String {
        switch mediaType {
        case "video/x-h264": return "h264"
        case "video/x-h265": return "hevc"
        case "video/x-vp8": return "vp8"
        case "video/x-vp9": return "vp9"
        case "video/x-av1": return "av1"
        case "video/x-theora": return "theora"
        case "image/jpeg": return "mjpeg"
        case "video/mpeg":
            switch mpegVersion {
            case 4: return "mpeg4"
            case 1: return "mpeg1video"
            default: return "mpeg2video"
            }
        case "audio/mpeg":
            switch (mpegVersion, layer) {
            case (2, _), (4, _): return "aac"
            case (_, 1): return "mp1"
            case (_, 2): return "mp2"
            default: return "mp3"
            }
        case "audio/x-opus": return "opus"
        case "audio/x-vorbis": return "vorbis"
        case "audio/x-flac": return "flac"
        case "audio/x-ac3": return "ac3"
        case "audio/x-eac3": return "eac3"
        case "audio/x-alaw": return "pcm_alaw"
        case "audio/x-mulaw": return "pcm_mulaw"
        default:
            let subtype = mediaType.split(separator: "/").last.map(String.init) ?? mediaType
            return subtype.hasPrefix("x-") ? String(subtype.dropFirst(2)) : subtype
        }
    }
}
