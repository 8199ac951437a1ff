import ArgumentParser
import Foundation
import Reel

/// `reel export`: a wall-clock span cut out of a camera's recording (`--record-dir`).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Cut a time span out of a camera's recording (--record-dir) without re-encoding.",
        discussion: """
            From the keyframe at or before --from (the first picture that decodes alone) to --to, \
            joined across the segments the span covers, into one file whose container follows its \
            name. Times are ISO 8601 with a zone (2026-11-28T10:15:00Z, 2026-11-28T11:15:00+01:00). \
            Stretches no segment covers (the camera was away) are said on standard error.
            """)

    @Option(name: .customLong("camera-dir"), help: ArgumentHelp("The camera's recording: the folder with its segments and index.jsonl.", valueName: "dir"))
    var cameraDirectory: String

    @Option(help: ArgumentHelp("Where the span starts.", valueName: "time"))
    var from: String

    @Option(help: ArgumentHelp("Where the span ends.", valueName: "time"))
    var to: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write (.mp4, .mkv, .ts).", valueName: "file"))
    var output: String

    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard let start = RecordingClock.parse(from) else { throw ValidationError("--from takes an ISO 8601 time with its zone, e.g. 2026-11-28T10:15:00Z (got \(from))") }
        guard let end = RecordingClock.parse(to) else { throw ValidationError("--to takes an ISO 8601 time with its zone, e.g. 2026-11-28T10:20:00Z (got \(to))") }
        guard end > start else { throw ValidationError("--to must come after --from") }
    }

    func run() throws {
        common.setUpLogging()
        let plan: ExportPlan
        do {
            plan = try RecordingExport.export(directory: cameraDirectory, from: RecordingClock.parse(from)!, to: RecordingClock.parse(to)!, output: output)
        } catch {
            throw fail("export: \(error)")
        }
        for gap in plan.gaps {
            FileHandle.standardError.write(Data("reel: nothing recorded from \(RecordingClock.text(gap.from)) to \(RecordingClock.text(gap.to))\n".utf8))
        }
        let segments = plan.pieces.count == 1 ? "1 segment" : "\(plan.pieces.count) segments"
        FileHandle.standardError.write(Data("reel: \(output) from \(RecordingClock.text(plan.firstPicture)) (\(String(format: "%.3f", plan.leadIn)) s before --from), \(segments)\n".utf8))
    }
}
