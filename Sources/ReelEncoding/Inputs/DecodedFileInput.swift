import ReelCore
import ReelFFmpeg

/// The pictures of any file Reel decodes (so an encode is a transcode), with the packets
/// of its first audio stream kept aside for the output to copy.
///
/// Not `Sendable`: one encoder loop pulls its pictures, in order.
public final class DecodedFileInput: EncoderInput {
    /// The input, open; its audio packets are taken from it as the pictures are read.
    public let demuxer: Demuxer
    /// Picture width in pixels.
    public let width: Int
    /// Picture height in pixels.
    public let height: Int
    /// The video's frame rate: its average, else its base rate, else 25.
    public let frameRate: Rational
    public let frameCount: Int?
    public var isLive: Bool { false }
    /// The input's audio stream, whose packets ``takeAudioPackets()`` hands out.
    public let audioStreamIndex: Int?
    private let decoder: Decoder
    private let videoIndex: Int
    private var frames: [VideoFrame] = []
    private var audio: [Packet] = []
    private var ended = false
    private var lastTime: MediaTime?

    /// Opens `path` and its first video stream's decoder.
    public init(path: String) throws {
        demuxer = try Demuxer(url: path)
        guard let video = demuxer.bestStream(of: .video), let stream = demuxer.info.streams.first(where: { $0.index == video }),
              let width = stream.width, let height = stream.height else {
            throw DecodeError(.noSuchStream(.video))
        }
        videoIndex = video
        decoder = try Decoder(demuxer: demuxer, streamIndex: video)
        self.width = width
        self.height = height
        frameRate = [stream.averageFrameRate, stream.realFrameRate].compactMap { $0 }.first { $0.isKnown } ?? Rational(25, 1)
        frameCount = stream.frameCount.map(Int.init)
        audioStreamIndex = demuxer.bestStream(of: .audio)
    }

    /// Audio packets read so far, in file order; the caller writes them out.
    public func takeAudioPackets() -> [Packet] {
        defer { audio.removeAll() }
        return audio
    }

    public func nextFrame() throws -> (frame: VideoFrame, presentationTime: MediaTime)? {
        while frames.isEmpty, !ended {
            if let packet = try demuxer.readPacket() {
                if packet.streamIndex == videoIndex {
                    try decoder.decode(packet) { if case .video(let frame) = $0 { frames.append(frame) } }
                } else if packet.streamIndex == audioStreamIndex {
                    audio.append(packet)
                }
            } else {
                ended = true
                try decoder.drain { if case .video(let frame) = $0 { frames.append(frame) } }
            }
        }
        guard !frames.isEmpty else { return nil }
        let frame = frames.removeFirst()
        // The file's own times, so copied audio stays in sync; a frame without one follows
        // the last at the nominal rate.
        let time = frame.presentationTime ?? lastTime.map { $0 + MediaTime(value: Int64(frameRate.denominator), timescale: Int32(clamping: frameRate.numerator)) } ?? .zero
        lastTime = time
        return (frame, time)
    }
}

@available(*, unavailable, message: "one owner uses it, in order")
extension DecodedFileInput: Sendable {}
