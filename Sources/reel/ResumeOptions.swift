import ArgumentParser
import Foundation
import Reel

/// Resuming where the viewer left a file, as mpv's watch-later: `Q` in the window (or any
/// quit with `--save-position-on-quit`) saves the position, the tracks and the volume; the
/// next `reel play` of the same file starts there, once.
struct ResumeOptions: ParsableArguments {
    @Flag(name: .customLong("save-position-on-quit"), help: "Save where you are on quitting (q, Ctrl-C), as Q does, to resume from the next time; a file played to its end starts from the beginning again.")
    var savePositionOnQuit = false

    @Flag(inversion: .prefixedNo, help: "Start a file where Q or --save-position-on-quit left it (position, audio and subtitle tracks, volume), once; never a live input.")
    var resume = true

    @Option(name: .customLong("watch-later-dir"), help: ArgumentHelp("Where the saved positions are kept ($XDG_STATE_HOME/reel/watch-later by default).", valueName: "directory"))
    var watchLaterDirectory: String?

    var points: ResumePoints { watchLaterDirectory.map { ResumePoints(directory: $0) } ?? ResumePoints() }

    /// The point to start `input` from: the one saved for it, unless told where to start,
    /// or it is live. It is used once: the saved file goes.
    func pointToResume(for input: String, startGiven: Bool) -> ResumePoint? {
        guard resume, !startGiven, !LiveInputs.isLive(url: input) else { return nil }
        let (point, warning) = points.load(input)
        if let warning { FileHandle.standardError.write(Data("reel: \(warning)\n".utf8)) }
        guard let point else { return nil }
        points.forget(input)
        FileHandle.standardError.write(Data(String(format: "reel: resuming at %.2f s\n", point.position).utf8))
        return point
    }

    /// At the end of playing `input`: the point saved when the viewer asked (`Q`, or any
    /// quit with --save-position-on-quit), forgotten when the input was played to its end.
    func finish(_ input: String, point: ResumePoint?, quitSavingPosition: Bool, ended: Bool) throws {
        if ended {
            points.forget(input)
        } else if quitSavingPosition || savePositionOnQuit, let point {
            try points.save(point, for: input)
        }
    }
}
