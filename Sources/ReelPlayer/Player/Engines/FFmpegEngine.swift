import Foundation
import ReelCore
import ReelFFmpeg

/// The FFmpeg engine: a read thread over a ``PlaybackSource`` (FFmpeg's demuxer, or Reel's
/// RTP receiver for an SDP) and a decode thread per stream behind the session's packet
/// queues, bounded in bytes and seconds as in ffplay: the reader then never waits on a
/// small frame queue of one stream while the other stream's decoder still needs packets
/// (a frame-threaded video decoder holds one packet per thread before its first frame).
final class FFmpegEngine: PlaybackEngine, @unchecked Sendable {
    let source: any PlaybackSource
    private var videoCodec: Decoder?
    private var audioCodec: Decoder?
    private var framePool: FramePool?
    /// Packets read while checking where a seek landed, played before reading on.
    private var landingPackets: [Packet] = []

    init(source: any PlaybackSource) {
        self.source = source
    }

    var kind: PlaybackEngineKind { .ffmpeg }
    var info: MediaInfo { source.info }
    func bestStream(of type: MediaType) -> Int? { source.bestStream(of: type) }
    func cancel() { source.cancel() }
    var framesAllocated: Int { framePool?.allocatedCount ?? 0 }
    var videoDecoder: (name: String, isHardware: Bool)? { videoCodec.map { ($0.codecName, $0.isHardwareAccelerated) } }

    func prepare(videoStream: Int?, audioStream: Int?, options: DecoderOptions, framePool: FramePool) throws {
        videoCodec = try videoStream.map { try source.makeDecoder(streamIndex: $0, options: options, framePool: framePool) }
        audioCodec = try audioStream.map { try source.makeDecoder(streamIndex: $0, options: options, framePool: framePool) }
        self.framePool = framePool
    }

    func start(_ session: PlaybackSession, spawn: (String, @escaping @Sendable () -> Void) -> Void) {
        spawn("reel.read") { [self] in readLoop(session) }
        if session.videoStream != nil, session.configuration.videoDecoding == .asynchronous {
            spawn("reel.video.decode") { [self] in
                decodeLoop(session, session.videoPackets, videoCodec, queue: session.queueVideo) {
                    session.videoFrames.put(QueuedVideoFrame(frame: nil), serial: $0)
                }
            }
        }
        if session.audioStream != nil {
            spawn("reel.audio.decode") { [self] in
                decodeLoop(session, session.audioPackets, audioCodec, takesSwitches: true, queue: session.queueAudio) {
                    session.audioFrames.put(QueuedAudioFrame(frame: nil), serial: $0)
                }
            }
        }
    }

    /// The switch's decoder is made here (an error if it cannot be); the audio thread takes
    /// it at the first packet of the timeline the switch's seek starts.
    func switchAudio(to index: Int, in session: PlaybackSession, at position: Double) throws {
        guard let framePool else { throw DecodeError(.noSuchStream(.audio)) }
        let decoder = try source.makeDecoder(streamIndex: index, options: session.configuration.decoder, framePool: framePool)
        session.requestSeek(to: position, mode: .exact) { control in
            control.audioStreamIndex = index
            control.pendingAudioDecoder = decoder
        }
    }

    // MARK: Read thread

    private func readLoop(_ session: PlaybackSession) {
        let control = session.control
        let configuration = session.configuration
        var serial = control.read { $0.serial }
        // Changes only with a seek (an audio switch comes with one): read there, not per packet.
        var audioStream = control.read { $0.audioStreamIndex }
        let videoStream = session.videoStream
        while !control.read({ $0.aborted }) {
            if let seek = control.read({ control -> PlaybackControl.Seek? in
                defer { control.pendingSeek = nil }
                return control.pendingSeek
            }) {
                (serial, audioStream) = control.read { ($0.serial, $0.audioStreamIndex) }
                do {
                    landingPackets = try seekLandingAtOrBefore(seek.target, videoStream: videoStream, startTime: session.startTime)
                } catch {
                    session.emit(.error(PlayerError(error as? InputError ?? InputError(.other, operation: .seek, url: source.url))))
                }
                if configuration.videoDecoding == .synchronous { videoCodec?.flush() }
                session.subtitles?.flushDecoders()
                continue
            }
            if control.read({ $0.readerAtEnd }) {
                control.lock.withLock { if control.pendingSeek == nil && !control.aborted { control.lock.wait(seconds: 0.05) } }
                continue
            }
            do {
                let held = landingPackets.isEmpty ? nil : landingPackets.removeFirst()
                guard let packet = try held ?? source.readPacket() else {
                    try endOfInput(session, serial: serial)
                    continue
                }
                if session.isLive, packet.streamIndex == audioStream || packet.streamIndex == videoStream, let end = packet.endSeconds {
                    let video = packet.streamIndex == videoStream
                    let start = packet.presentationTime?.seconds ?? end
                    let jumped = control.lock.withLock { () -> Double? in
                        let newest = video ? control.newestRead.video : control.newestRead.audio
                        guard control.newestRead.isJump(to: start, video: video, serial: serial) else {
                            control.newestRead.note(end, video: video, serial: serial)
                            return nil
                        }
                        return newest
                    }
                    // Played on, the streams would stay apart (each jumps at its own packet):
                    // the input is opened again, on a new timeline.
                    if let jumped { throw InputError(.timestampsJumped(from: jumped, to: start), operation: .read, url: source.url) }
                }
                if let recorder = control.read({ $0.recorder }) { recorder.take(packet) }
                if packet.streamIndex == audioStream {
                    session.audioPackets.put(QueuedPacket(packet: packet), serial: serial)
                } else if packet.streamIndex == videoStream {
                    if configuration.videoDecoding == .asynchronous {
                        session.videoPackets.put(QueuedPacket(packet: packet), serial: serial)
                    } else {
                        try videoCodec?.decode(packet) { frame in session.queueVideo(frame, serial: serial) }
                    }
                } else {
                    session.subtitles?.take(packet)
                }
            } catch {
                if control.read({ $0.aborted }) { return }
                session.fail(error)
                return
            }
        }
    }

    /// Seeks to the video keyframe at or before `target` and returns the packets read to
    /// find it. A demuxer without an index (MPEG-TS) can land after that keyframe, even
    /// after the last one (then nothing could be decoded: `--start 1` of a 2 s TS showed
    /// nothing); the seek is then made again from further back, 1 s, 2 s, 4 s, 8 s, and at
    /// last from the input's start.
    private func seekLandingAtOrBefore(_ target: Double, videoStream: Int?, startTime: Double) throws -> [Packet] {
        // Reel's own RTP source is live: it has nowhere to land.
        guard let file = source as? Demuxer, let videoStream else {
            try source.seek(to: MediaTime(seconds: target))
            return []
        }
        var backoff = 0.0
        while true {
            let from = target - backoff
            guard from > startTime, backoff < 8 else {
                try file.rewind()
                return []
            }
            try source.seek(to: MediaTime(seconds: from))
            var held: [Packet] = []
            var landedAfter = true
            // The read ahead is bounded: a keyframe is looked for in the next 2,000 packets.
            while held.count < 2_000, let packet = try source.readPacket() {
                held.append(packet)
                guard packet.streamIndex == videoStream, packet.isKeyframe else { continue }
                landedAfter = (packet.presentationTime?.seconds).map { $0 > target + 0.001 } ?? false
                break
            }
            if !landedAfter || held.count >= 2_000 { return held }
            backoff = backoff == 0 ? 1 : backoff * 2
        }
    }

    private func endOfInput(_ session: PlaybackSession, serial: Int) throws {
        if session.configuration.videoDecoding == .asynchronous {
            session.videoPackets.put(QueuedPacket(packet: nil), serial: serial)
        } else if session.videoStream != nil {
            try videoCodec?.drain { frame in session.queueVideo(frame, serial: serial) }
            session.videoFrames.put(QueuedVideoFrame(frame: nil), serial: serial)
        }
        if session.audioStream != nil { session.audioPackets.put(QueuedPacket(packet: nil), serial: serial) }
        session.readerReachedEnd(serial: serial)
    }

    // MARK: Decode threads

    /// Decodes the packets of one stream as they come, flushing the decoder when a seek
    /// starts a new timeline; at the end marker drains it and queues the end with `end`.
    private func decodeLoop(_ session: PlaybackSession, _ packets: BlockingQueue<QueuedPacket>, _ decoder: Decoder?, takesSwitches: Bool = false,
                            queue: (DecodedFrame, Int) -> Void, end: (Int) -> Void) {
        guard var decoder else { return }
        let control = session.control
        var decoderSerial = -1
        while let (item, serial) = packets.take() {
            if serial != decoderSerial {
                // A track switch's new timeline brings the new stream's decoder (set
                // before the reader can queue a packet of that timeline).
                if takesSwitches, let switched = control.read({ control -> Decoder? in
                    defer { control.pendingAudioDecoder = nil }
                    return control.pendingAudioDecoder
                }) {
                    decoder = switched
                } else if decoderSerial >= 0 {
                    decoder.flush()
                }
                decoderSerial = serial
            }
            do {
                if let packet = item.packet {
                    try decoder.decode(packet) { frame in queue(frame, serial) }
                } else {
                    try decoder.drain { frame in queue(frame, serial) }
                    end(serial)
                }
            } catch {
                if !control.read({ $0.aborted }) { session.fail(error) }
                return
            }
        }
    }
}
