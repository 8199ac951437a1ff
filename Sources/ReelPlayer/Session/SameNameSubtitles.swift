import Foundation

/// mpv's `--sub-auto=exact`: the subtitle files beside a local input named as it is.
enum SameNameSubtitles {
    /// The configuration's files, then those beside `input` when it asks for them.
    static func files(for input: String, configuration: Player.Configuration) -> [String] {
        let given = configuration.subtitleFiles
        guard configuration.loadsSameNameSubtitles else { return given }
        return given + beside(input).filter { !given.contains($0) }
    }

    /// `movie.srt`, `movie.ass`, `movie.ssa`, `movie.vtt` beside a local `movie.mkv`.
    static func beside(_ input: String) -> [String] {
        guard !input.contains("://") || input.hasPrefix("file://") else { return [] }
        let path = input.hasPrefix("file://") ? String(input.dropFirst(7)) : input
        let base = (path as NSString).deletingPathExtension
        return ["srt", "ass", "ssa", "vtt"].map { "\(base).\($0)" }.filter { $0 != path && FileManager.default.fileExists(atPath: $0) }
    }
}
