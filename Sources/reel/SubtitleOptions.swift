import ArgumentParser
import Foundation
import Reel

/// mpv's subtitle options for `reel play`.
struct SubtitleOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The subtitle track: its number among the subtitle tracks (from 1; files after the input's own, as mpv's --sid), auto, or no; j cycles them in the window.",
                               valueName: "N|auto|no"))
    var sid: String = "auto"

    @Option(help: ArgumentHelp("Subtitle languages to prefer, in order (eng,fre), as mpv's --slang; without it a track shows only when marked default or forced, or loaded from a file.",
                               valueName: "list"))
    var slang: String?

    @Option(name: .customLong("sub-file"), help: ArgumentHelp("Load a subtitle file (SRT, WebVTT, ASS/SSA) beside the input and show it. May be repeated.", valueName: "path"))
    var subFiles: [String] = []

    @Option(name: .customLong("sub-auto"), help: ArgumentHelp("exact: also load the subtitle files named as the input (movie.srt, movie.ass beside movie.mkv), as mpv does; no: only --sub-file.",
                                                             valueName: "exact|no"))
    var subAuto: String = "exact"

    @Option(name: .customLong("sub-delay"), help: "Show subtitles this many seconds later (earlier when negative); z and x change it by 0.1 s.")
    var subDelay: Double = 0

    @Option(name: .customLong("sub-scale"), help: "Text size factor for subtitles, 0.1 to 10.")
    var subScale: Double = 1

    func validate() throws {
        guard let request = TrackRequest(mpvTrackID: sid) else { throw ValidationError("--sid takes a number from 1, auto or no (got \(sid))") }
        if slang != nil && request != .automatic() { throw ValidationError("--slang chooses among the tracks that --sid \(sid) already chose") }
        guard ["exact", "no"].contains(subAuto) else { throw ValidationError("--sub-auto takes exact or no (got \(subAuto))") }
        guard (0.1...10).contains(subScale) else { throw ValidationError("--sub-scale must be between 0.1 and 10 (got \(subScale))") }
        guard subDelay.isFinite else { throw ValidationError("--sub-delay takes seconds") }
    }

    /// Sets the configuration's subtitle fields.
    func apply(to configuration: inout Player.Configuration) {
        configuration.subtitleTrack = TrackRequest(mpvTrackID: sid, languages: slang)
        configuration.subtitleFiles = subFiles
        configuration.loadsSameNameSubtitles = subAuto == "exact"
        configuration.subtitleDelay = subDelay
        configuration.subtitleScale = subScale
    }
}
