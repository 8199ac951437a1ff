import Foundation
import ReelCore

/// The first audio stream of a file (any FFmpeg reads), decoded as it is sent and brought
/// to talk-back's 8 kHz mono 16-bit by libswresample: a recorded announcement for a camera's
/// speaker. Paced by the sender, in real time.
public final class AudioFileTalkSource: TalkSource, @unchecked Sendable {
    public let isLive = false
    private let demuxer: Demuxer
    private let decoder: Decoder
    private let streamIndex: Int
    private let converter = AudioConverter(device: AudioDeviceFormat(sampleRate: TalkBackPacketizer.sampleRate, channels: 1))
    private let lock = ConditionLock()
    private var pending: [Int16] = []
    private var drained = false

    /// Throws for a file that cannot be opened or has no audio.
    public init(path: String) throws {
        demuxer = try Demuxer(url: path)
        guard let index = demuxer.bestStream(of: .audio) else {
            throw InputError(.invalidData, operation: .open, url: path, detail: "there is no audio to talk with in it")
        }
        streamIndex = index
        decoder = try Decoder(demuxer: demuxer, streamIndex: index, options: DecoderOptions(threadCount: 1))
    }

    public func read(count: Int) throws -> [Int16]? {
        try lock.withLock {
            while pending.count < count, !drained { try decodeMore() }
            guard !pending.isEmpty else { return nil }
            let taken = Array(pending.prefix(max(count, 0)))
            pending.removeFirst(taken.count)
            return taken
        }
    }

    private func decodeMore() throws {
        let take: (DecodedFrame) throws -> Void = { [self] decoded in
            guard case .audio(let frame) = decoded else { return }
            try converter.push(frame)
            pull()
        }
        if let packet = try demuxer.readPacket() {
            if packet.streamIndex == streamIndex { try decoder.decode(packet, take) }
        } else {
            try decoder.drain(take)
            try converter.push(nil)
            pull()
            drained = true
        }
    }

    private func pull() {
        converter.pull { bytes, _ in
            // Float to 16 bits as libswresample does (lrintf, clipped); a float file's NaN is silence.
            pending.append(contentsOf: bytes.bindMemory(to: Float.self).lazy.map { sample in
                sample.isNaN ? 0 : Int16((min(max(sample, -1), 32767.0 / 32768) * 32768).rounded(.toNearestOrEven))
            })
        }
    }
}
