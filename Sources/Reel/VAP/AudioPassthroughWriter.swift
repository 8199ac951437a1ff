import ReelCore
import ReelFFmpeg

/// A video writer that also copies an input's audio packets, interleaved by time: before
/// each picture, the audio up to that picture's time.
final class AudioPassthroughWriter {
    let video: VideoFileWriter
    let demuxer: Demuxer
    let audioIndex: Int?
    private var pending: Packet?
    private var ended = false

    init(video: VideoFileWriter, demuxer: Demuxer, audioIndex: Int?) {
        self.video = video
        self.demuxer = demuxer
        self.audioIndex = audioIndex
    }

    /// Copies the audio packets that start at or before `seconds`.
    func copyAudio(until seconds: Double) throws {
        guard let audioIndex else { return }
        while !ended {
            if pending == nil {
                guard let packet = try demuxer.readPacket() else { ended = true; return }
                guard packet.streamIndex == audioIndex else { continue }
                pending = packet
            }
            guard let packet = pending, (packet.presentationTime?.seconds ?? 0) <= seconds else { return }
            try video.write(copied: packet)
            pending = nil
        }
    }

    /// The rest of the audio, then the file's end.
    func finish() throws {
        try copyAudio(until: .infinity)
        try video.finish()
    }
}
