import Foundation
import Reel

/// `--stats`: a live line on stderr twice a second, and a JSON report at the end.
final class StatsReporter: @unchecked Sendable {
    private let player: Player
    private var timer: DispatchSourceTimer?

    init(player: Player) {
        self.player = player
    }

    func start() {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + 0.5, repeating: 0.5)
        timer.setEventHandler { [player] in
            let s = player.statistics
            let offset = s.avOffset.map { String(format: "%+.3f", $0) } ?? "n/a"
            let line = String(format: "\r%8.2f s  shown %6d  dropped %4d  A-V %@  queues v %3d pkt %2d frm  a %2d frm ",
                              s.position, s.framesShown, s.framesDropped, offset, s.videoPacketsQueued, s.videoFramesQueued, s.audioFramesQueued)
            FileHandle.standardError.write(Data(line.utf8))
        }
        timer.resume()
        self.timer = timer
    }

    func stop() {
        timer?.cancel()
        FileHandle.standardError.write(Data("\n".utf8))
    }

    func printReport(_ statistics: PlaybackStatistics, wallSeconds: Double) {
        struct Report: Encodable {
            var statistics: PlaybackStatistics
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
