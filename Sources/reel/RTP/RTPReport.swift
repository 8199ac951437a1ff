import Foundation
import Reel

/// The final JSON report of `reel rtp receive`, on standard output.
struct RTPReport: Encodable {
    var statistics: RTPReceiverStatistics
    var transport: String
    var codec: String
    var recorded: String?
    var accessUnitsWritten: Int
    var ending: String

    func print() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        FileHandle.standardOutput.write(try encoder.encode(self) + Data("\n".utf8))
    }
}

/// `--stats`: counts on one line of stderr, twice a second.
final class RTPLiveLine: @unchecked Sendable {
    private let receiver: RTPReceiver
    private var timer: DispatchSourceTimer?

    init(receiver: RTPReceiver) { self.receiver = receiver }

    func start() {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + 0.5, repeating: 0.5)
        timer.setEventHandler { [receiver] in
            let s = receiver.statistics
            let line = String(format: "\r%7.1f s  %7d pkts  lost %5d  dup %4d  late %4d  reord %4d  jitter %6.2f ms  %6.2f Mbit/s  AUs %6d  damaged %4d ",
                              s.seconds, s.packets.received, s.packets.lost, s.packets.duplicate, s.packets.late, s.packets.reordered,
                              s.packets.jitterSeconds * 1000, s.bitRate / 1e6, s.accessUnits, s.corruptedAccessUnits)
            FileHandle.standardError.write(Data(line.utf8))
        }
        timer.resume()
        self.timer = timer
    }

    func stop() {
        timer?.cancel()
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
