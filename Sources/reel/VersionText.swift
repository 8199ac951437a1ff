import Reel
import ReelSDL

/// What `reel --version` prints: Reel's release, then the libraries it runs on, named as
/// FFmpeg's own tools name them, for bug reports.
enum VersionText {
    static var text: String {
        "reel \(ReelRelease.version)\n\(FFmpegVersion.libavformat) \(FFmpegVersion.libavcodec) SDL \(SDLVersion.linked)"
    }
}
