import ReelCore
import ReelFFmpeg

/// Decodes a VAP file's video frame by frame: samples located by Reel's MP4 reader are
/// read from the file and given to libavcodec (as VAP gives them to VideoToolbox), and
/// the pictures come out in presentation order with their frame index.
///
/// Not `Sendable`: one thread decodes, frame after frame, as a player or an export does.
public final class VAPFrameDecoder {
    /// The file as Reel's MP4 reader sees it.
    public let file: VAPFile
    private let source: MP4FileSource
    private let decoder: Decoder
    /// Frame index of each presentation time.
    private let frameIndex: [Int64: Int]
    private var nextSample = 0
    /// Decoded pictures not handed out yet, in the order the decoder gave them.
    private var ready: [(index: Int, picture: PixelBuffer)] = []
    /// Pictures before this index are decoded but dropped (after a seek).
    private var firstWanted = 0
    private var isDrained = false

    /// Opens `path`; `threads` decoding threads (0: as many as cores).
    public init(path: String, threads: Int = 1) throws {
        source = try MP4FileSource(path: path)
        file = try VAPFile(source: source)
        let track = file.video
        decoder = try Decoder(videoCodec: file.codec, configuration: track.codecConfiguration ?? [], width: file.videoWidth,
                              height: file.videoHeight, timeBase: Rational(1, Int(track.timescale)), options: DecoderOptions(threadCount: threads))
        var order = [Int64: Int]()
        for (index, time) in track.samples.map(\.presentationTime).sorted().enumerated() { order[time] = order[time] ?? index }
        frameIndex = order
    }

    /// Frames in the video.
    public var frameCount: Int { file.frameCount }

    /// The next picture in presentation order, `nil` after the last.
    public func nextFrame() throws -> (index: Int, picture: PixelBuffer)? {
        while ready.isEmpty {
            if nextSample < file.video.samples.count {
                try decode(sample: nextSample)
                nextSample += 1
            } else if !isDrained {
                isDrained = true
                try decoder.drain(receive)
            } else {
                return nil
            }
        }
        return ready.removeFirst()
    }

    /// Makes frame `index` the next one ``nextFrame()`` returns (decoding from the keyframe
    /// before it).
    public func seek(toFrame index: Int) throws {
        let samples = file.video.samples
        guard index >= 0, index < samples.count else { throw VAPError.invalidField(path: "frame", reason: "no frame \(index) of \(samples.count)") }
        // The sample shown as frame `index`, then the keyframe at or before it in decode order.
        let wanted = samples.indices.first { frameIndex[samples[$0].presentationTime] == index } ?? index
        let keyframe = samples[...wanted].lastIndex { $0.isKeyframe } ?? 0
        decoder.flush()
        ready.removeAll()
        isDrained = false
        nextSample = keyframe
        firstWanted = index
    }

    private func decode(sample index: Int) throws {
        let sample = file.video.samples[index]
        guard let bytes = try source.read(at: sample.offset, count: Int(sample.size)), bytes.count == Int(sample.size) else {
            throw VAPError.unreadable("sample \(index) (\(sample.size) bytes at \(sample.offset)) lies beyond the end of the file")
        }
        let storage = HeapStorage(byteCount: bytes.count)
        bytes.withUnsafeBytes { storage.bytes.copyMemory(from: $0) }
        let packet = Packet(streamIndex: 0, pts: sample.presentationTime, dts: sample.decodeTime, duration: 0,
                            timeBase: Rational(1, Int(file.video.timescale)), isKeyframe: sample.isKeyframe,
                            data: UnsafeRawBufferPointer(storage.bytes), owner: storage)
        try decoder.decode(packet, receive)
    }

    private func receive(_ decoded: DecodedFrame) throws {
        guard case .video(let frame) = decoded else { return }
        let index = frame.pts.flatMap { frameIndex[$0] } ?? (ready.last.map { $0.index + 1 } ?? firstWanted)
        guard index >= firstWanted else { return }
        ready.append((index, try PixelBuffer(wrapping: frame)))
    }
}

@available(*, unavailable, message: "one owner uses it, in order")
extension VAPFrameDecoder: Sendable {}
