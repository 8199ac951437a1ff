import ReelCore
import ReelFFmpeg

/// Describes inputs: container, chapters and streams, as `ffprobe` does.
public enum MediaProbe {
    /// Opens `url` (a path or any URL libavformat reads), describes it and closes it.
    ///
    /// - Throws: `InputError` with a message naming the input and the problem.
    public static func probe(_ url: String, options: DemuxOptions = DemuxOptions()) async throws -> MediaInfo {
        try await BlockingThread.run(name: "reel.probe") {
            try Demuxer(url: url, options: options).info
        }
    }
}
