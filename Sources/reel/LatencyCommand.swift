import ArgumentParser
import Foundation
import Reel

/// `reel latency`: the glass-to-glass ruler for other programs. They decode the stream
/// and write y4m to a pipe; each picture's timecode is read as it arrives, so ffmpeg,
/// GStreamer and Reel are measured the same way.
struct LatencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latency",
        abstract: "Measure glass-to-glass latency from y4m pictures on standard input.",
        discussion: """
            Reads the timecode `reel encode --camera --timecode` draws into each picture, at the \
            moment the picture arrives, and reports the latency from capture (p50, p95, max) and \
            the pictures without a readable code: a line on standard error and JSON on standard \
            output when the input ends. For example:
              ffmpeg -fflags nobuffer -flags low_delay -i URL -f yuv4mpegpipe - | reel latency
              gst-launch-1.0 -q … ! y4menc ! fdsink | reel latency
            """)

    @Option(name: .shortAndLong, help: "The y4m input; - for standard input.")
    var input: String = "-"

    @Option(help: ArgumentHelp("Leave out the pictures of the first SECONDS after the first one arrives.", valueName: "seconds"))
    var warmup: Double = 0

    @Option(help: ArgumentHelp("Stop after SECONDS of pictures (counted from the first one).", valueName: "seconds"))
    var duration: Double?

    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard warmup >= 0 else { throw ValidationError("--warmup takes seconds, 0 or more (got \(warmup))") }
        if let duration, !(duration > 0) { throw ValidationError("--duration takes seconds above 0 (got \(duration))") }
    }

    func run() throws {
        common.setUpLogging()
        let pictures: RawPictureFileInput
        do {
            pictures = try RawPictureFileInput(y4m: input == "-" ? "/dev/stdin" : input)
        } catch {
            throw fail("\(input == "-" ? "standard input" : input): \(error)")
        }
        var meter = LatencyMeter(warmup: warmup)
        // The duration counts from the first picture, not from the start: a player's
        // opening (seconds for HLS) is not part of it.
        var firstPictureAt: Double?
        var failure: (any Error)?
        while duration.map({ limit in firstPictureAt.map { monotonicSeconds() - $0 < limit } ?? true }) ?? true {
            do {
                guard let (frame, _) = try pictures.nextFrame() else { break }
                let clock = LatencyTimecode.now()
                if firstPictureAt == nil { firstPictureAt = monotonicSeconds() }
                meter.add(code: LatencyTimecode.read(frame), at: clock)
            } catch {
                failure = error
                break
            }
        }
        let summary = meter.summary
        FileHandle.standardError.write(Data("reel: glass-to-glass latency \(summary.line)\n".utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(summary), as: UTF8.self))
        // A pipe cut mid-picture when the program before it is stopped is the usual end;
        // anything else wrong with the stream is an error.
        if let failure, summary.pictures == 0 || (failure as? InputError)?.reason != .truncated { throw fail("\(failure)") }
        guard summary.pictures > 0 else {
            throw fail("none of the \(summary.unreadable) pictures carried a readable timecode (`reel encode --camera --timecode` draws one)")
        }
    }
}
