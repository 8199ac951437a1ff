import ArgumentParser
import Foundation
import Logging
import Reel

@main
struct ReelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel",
        abstract: "Play, inspect, transform and receive video on Linux.",
        version: VersionText.text,
        subcommands: [PlayCommand.self, WallCommand.self, ExportCommand.self, ProbeCommand.self, DecodeCommand.self, ThumbnailsCommand.self, PanoCommand.self, VAPCommand.self, EncodeCommand.self, RTPCommand.self, LatencyCommand.self])

    static func main() async {
        await main(BareLoopOptions.expand(Array(CommandLine.arguments.dropFirst())))
    }
}

/// mpv's `--loop-file` and `--loop-playlist` stand alone for `inf`; a count, `inf` or
/// `no` may follow them after `=` or a space.
enum BareLoopOptions {
    static let names: Set = ["--loop-file", "--loop-playlist"]

    static func expand(_ arguments: [String]) -> [String] {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        return arguments.indices.map { index in
            let argument = arguments[index]
            guard index < end, names.contains(argument) else { return argument }
            let next = index + 1 < end ? arguments[index + 1] : nil
            return next.flatMap(LoopCount.init(parsing:)) == nil ? argument + "=inf" : argument
        }
    }
}

/// Options every subcommand takes.
struct CommonOptions: ParsableArguments {
    @Option(name: .customLong("log-level"),
            help: "How much to log on stderr: trace, debug, info, notice, warning, error, critical. Failures are reported in one line whatever the level.")
    var logLevel: Logger.Level = .critical

    @Option(help: "Seconds that opening the input, or reading from it, may block before giving up (0 = wait for ever).")
    var timeout: Double = 15

    var demuxOptions: DemuxOptions { DemuxOptions(timeout: timeout > 0 ? timeout : nil) }

    func setUpLogging() {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        FFmpegLog.install(level: level)
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// Prints `reel: <what went wrong>` as one line and exits non-zero.
func failing<Result>(_ body: () async throws -> Result) async throws -> Result {
    do {
        return try await body()
    } catch let error as ExitCode {
        throw error
    } catch let error as ValidationError {
        throw error
    } catch {
        throw fail(String(describing: error))
    }
}

func fail(_ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("reel: \(message)\n".utf8))
    return ExitCode.failure
}
