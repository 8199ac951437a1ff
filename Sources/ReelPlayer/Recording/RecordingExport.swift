import Foundation
import ReelCore
import ReelFFmpeg

/// Cuts a wall-clock span out of a camera's recording (``CameraRecorder``'s directory)
/// without encoding: from the keyframe at or before its start (the first picture that
/// decodes alone) to its end, joined across the segments it covers, in one file whose
/// times run on from one segment to the next (`reel export`). Cameras send no B-frames;
/// a stream with them may start its pieces a picture early.
public enum RecordingExport {
    /// Writes `from` up to `to` of the recording in `directory` to `output` (its container
    /// by its name); returns the plan it followed (its first picture, the lead-in before
    /// `from`, the gaps where the camera was away).
    @discardableResult
    public static func export(directory: String, from: Date, to: Date, output: String) throws -> ExportPlan {
        let index = URL(fileURLWithPath: directory).appendingPathComponent(CameraRecorder.indexName)
        guard let data = try? Data(contentsOf: index) else { throw InputError(.notFound, operation: .open, url: index.path) }
        let plan = try ExportPlan.plan(RecordingIndex.entries(of: data).entries, from: from, to: to)
        try StreamRecorder.check(output)
        var writer: StreamRecorder?
        // Seconds added to a piece's own times: each runs on from where the one before ended
        // (after its last picture's end, and after its last decoding time).
        var offset = 0.0, reached = 0.0, lastDecoded = -Double.infinity
        for (number, piece) in plan.pieces.enumerated() {
            let demuxer = try Demuxer(url: URL(fileURLWithPath: directory).appendingPathComponent(piece.file).path)
            let video = demuxer.bestStream(of: .video), audio = demuxer.bestStream(of: .audio)
            if writer == nil {
                writer = try StreamRecorder(path: output, copying: [video, audio].compactMap { $0 }, of: demuxer, videoIndex: video)
            }
            if number > 0 { offset = max(reached, lastDecoded + 0.001) }
            // The index's offsets are written to the millisecond: a little past, not a GOP before.
            if piece.start > 0 { try demuxer.seek(to: MediaTime(seconds: piece.start + 0.0005)) }
            let isLast = number == plan.pieces.count - 1
            while var packet = try demuxer.readPacket() {
                guard let time = packet.presentationTime?.seconds else { continue }
                // Past the span's end (the last piece only: the others are whole): done, the
                // sound up to its last picture kept.
                if isLast && time > piece.end + 0.002 {
                    if packet.streamIndex == video || video == nil { break }
                    continue
                }
                shift(&packet, by: offset)
                try writer?.write(packet)
                if let end = packet.endSeconds { reached = max(reached, end) }
                if let decoded = (packet.decodeTime ?? packet.presentationTime)?.seconds { lastDecoded = max(lastDecoded, decoded) }
            }
        }
        try writer?.finish()
        return plan
    }

    /// `packet`'s times moved `seconds` later, in its own time base.
    private static func shift(_ packet: inout Packet, by seconds: Double) {
        guard seconds != 0, let unit = packet.timeBase.doubleValue, unit > 0 else { return }
        let ticks = Int64((seconds / unit).rounded())
        packet.pts = packet.pts.map { $0 + ticks }
        packet.dts = packet.dts.map { $0 + ticks }
    }
}
