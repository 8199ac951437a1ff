import Foundation
import Reel

/// `--stats` for `reel play`: the live line, and a JSON report at the end.
final class StatsReporter: @unchecked Sendable {
    private let line: LiveLine

    init(player: Player) {
        line = LiveLine {
            let s = player.statistics
            let offset = s.avOffset.map { String(format: "%+.3f", $0) } ?? "n/a"
            var live = s.liveLatency.map { String(format: "  live %.3f s (catch-ups %d, jumps %d)", $0, s.liveCatchUps, s.liveJumps) } ?? ""
            if s.reconnects > 0 { live += "  reconnects \(s.reconnects)" }
            if let kept = s.timeshiftSeconds { live += String(format: "  timeshift %.0f s %.1f MB", kept, Double(s.timeshiftBytes ?? 0) / 1e6) }
            if let glass = s.glassToGlass { live += "  glass " + glass.line }
            if let r = s.reception { live += "  rtp lost \(r.packetsLost) repaired \(r.packetsRepaired) keyframes asked \(r.keyframesAsked)" }
            return String(format: "%8.2f s  shown %6d  dropped %4d  A-V %@  queues v %3d pkt %2d frm  a %3d pkt %2d frm  underruns %d%@ ",
                          s.position, s.framesShown, s.framesDropped, offset, s.videoPacketsQueued, s.videoFramesQueued,
                          s.audioPacketsQueued, s.audioFramesQueued, s.audioUnderruns, live)
        }
    }

    func start() { line.start() }
    func stop() { line.stop() }

    func printReport(_ statistics: PlayerStatistics, wallSeconds: Double) {
        struct Report: Encodable {
            var statistics: PlayerStatistics
            var wallSeconds: Double
            enum CodingKeys: String, CodingKey { case statistics, wallSeconds = "wall_seconds" }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        if let data = try? encoder.encode(Report(statistics: statistics, wallSeconds: wallSeconds)) {
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
