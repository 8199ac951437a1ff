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

extension LiveLine {
    /// `reel rtp receive --stats`: the receiver's counts.
    convenience init(receiver: RTPReceiver) {
        self.init {
            let s = receiver.statistics
            return String(format: "%7.1f s  %7d pkts  lost %5d  dup %4d  late %4d  reord %4d  jitter %6.2f ms  %6.2f Mbit/s  AUs %6d  damaged %4d ",
                          s.seconds, s.packets.received, s.packets.lost, s.packets.duplicate, s.packets.late, s.packets.reordered,
                          s.packets.jitterSeconds * 1000, s.bitRate / 1e6, s.accessUnits, s.corruptedAccessUnits)
        }
    }
}
