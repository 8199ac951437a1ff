import ReelCore
import ReelFFmpeg

/// A video writer that also copies an input's audio packets (when there is an input),
/// interleaved by time: before each picture, the audio up to that picture's time.
final class AudioPassthroughWriter {
    let video: VideoFileWriter
    private let audio: (demuxer: Demuxer, streamIndex: Int)?
    private var pending: Packet?
    private var ended = false

    init(video: VideoFileWriter, audio: (demuxer: Demuxer, streamIndex: Int)?) {
        self.video = video
        self.audio = audio
    }

    /// Copies the audio packets that start at or before `seconds`.
    func copyAudio(until seconds: Double) throws {
        guard let (demuxer, audioIndex) = audio else { return }
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
