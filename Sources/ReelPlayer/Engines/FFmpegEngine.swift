import Foundation
import ReelCore
import ReelFFmpeg

/// The FFmpeg engine: a read thread over a ``PlaybackSource`` (FFmpeg's demuxer, or Reel's
/// RTP receiver for an SDP) and a decode thread per stream behind its packet queues,
/// bounded in bytes and seconds as in ffplay: the reader then never waits on a small
/// frame queue of one stream while the other stream's decoder still needs packets (a
/// frame-threaded video decoder holds one packet per thread before its first frame).
final class FFmpegEngine: PlaybackEngine, @unchecked Sendable {
    let source: any PlaybackSource
    private let videoDecoding: VideoDecoding
    private let videoPackets: BlockingQueue<QueuedPacket>
    private let audioPackets: BlockingQueue<QueuedPacket>
    private let inbox = EngineInbox()
    private var videoCodec: Decoder?
    private var audioCodec: Decoder?
    private var videoStream: Int?
    private var audioStream: Int?
    private var decoderOptions = DecoderOptions()
    private var framePool: FramePool?
    /// Packets read while checking where a seek landed, played before reading on.
    private var landingPackets: [Packet] = []
    /// An audio switch: from timeline `serial` on, stream `index` through `decoder`.
    private let audioSwitch = LockedValue<(serial: Int, index: Int, decoder: Decoder)?>(nil)
    private let preparedSwitch = LockedValue<(index: Int, decoder: Decoder)?>(nil)
    private let recorder = LockedValue<SessionRecorder?>(nil)
    /// Bytes of packets read (the input's bit rate, as a camera wall's tiles show it).
    private let bytesRead = LockedValue<Int64>(0)

    init(source: any PlaybackSource, packetLimits: BlockingQueue<QueuedPacket>.Limits, videoDecoding: VideoDecoding) {
        self.source = source
        self.videoDecoding = videoDecoding
        videoPackets = BlockingQueue(limits: packetLimits)
        audioPackets = BlockingQueue(limits: packetLimits)
        // Through a timeshift, a recording takes the packets as they arrive, not those the
        // viewer goes back to.
        (source as? TimeshiftSource)?.onKept.withLock { [recorder] onKept in onKept = { packet in recorder.withLock { $0 }?.take(packet) } }
    }

    var kind: PlaybackEngineKind { .ffmpeg }
    var info: MediaInfo { source.info }
    var capabilities: EngineCapabilities {
        EngineCapabilities(supportsRecording: source.demuxer != nil, reopensWhenLost: source.reopensWhenLost, reportsLiveEdge: true)
    }
    var subtitleDemuxer: Demuxer? { source.demuxer }
    var timeshift: TimeshiftRing? { source.timeshift }
    func bestStream(of type: MediaType) -> Int? { source.bestStream(of: type) }

    var statistics: EngineStatistics {
        EngineStatistics(videoPacketsQueued: videoPackets.count, audioPacketsQueued: audioPackets.count,
                         videoSecondsQueued: videoPackets.duration, audioSecondsQueued: audioPackets.duration, framesAllocated: framePool?.allocatedCount ?? 0,
                         videoDecoder: videoCodec.map { ($0.codecName, $0.isHardwareAccelerated) },
                         bytesRead: bytesRead.withLock { $0 })
    }

    func prepare(videoStream: Int?, audioStream: Int?, options: DecoderOptions, framePool: FramePool) throws {
        videoCodec = try videoStream.map { try source.makeDecoder(streamIndex: $0, options: options, framePool: framePool) }
        audioCodec = try audioStream.map { try source.makeDecoder(streamIndex: $0, options: options, framePool: framePool) }
        self.videoStream = videoStream
        self.audioStream = audioStream
        self.framePool = framePool
        decoderOptions = options
        source.demuxer?.discardOtherVariants(keeping: [videoStream, audioStream].compactMap { $0 })
    }

    func start(into sink: any FrameSink, serial: Int, spawn: (String, @escaping @Sendable () -> Void) -> Void) {
        spawn("reel.read") { [self] in readLoop(sink, serial: serial) }
        if videoStream != nil, videoDecoding == .asynchronous {
            spawn("reel.video.decode") { [self] in
                decodeLoop(sink, videoPackets, videoCodec, takesSwitches: false, type: .video)
            }
        }
        if audioStream != nil {
            spawn("reel.audio.decode") { [self] in
                decodeLoop(sink, audioPackets, audioCodec, takesSwitches: true, type: .audio)
            }
        }
    }

    /// The queues move to the new serial before the reader can learn of the seek: the
    /// other way round, the first packets of the new timeline (its keyframe) could be put
    /// while a queue still had the old serial, and be dropped as stale.
    func seek(to target: Double, mode: SeekMode, serial: Int) {
        videoPackets.flush(serial: serial)
        audioPackets.flush(serial: serial)
        if let prepared = preparedSwitch.withLock({ prepared in
            defer { prepared = nil }
            return prepared
        }) {
            audioSwitch.withLock { $0 = (serial, prepared.index, prepared.decoder) }
        }
        inbox.post(EngineSeek(target: target, mode: mode, serial: serial))
        // A read waiting for a live packet at a timeshift's newest comes back for the seek.
        source.timeshift?.wake()
    }

    /// The switch's decoder is made here (an error if it cannot be); the audio thread takes
    /// it at the first packet of the timeline the next seek starts.
    func switchAudio(to index: Int) throws {
        guard let framePool else { throw DecodeError(.noSuchStream(.audio)) }
        let decoder = try source.makeDecoder(streamIndex: index, options: decoderOptions, framePool: framePool)
        source.demuxer?.undiscard(index)
        preparedSwitch.withLock { $0 = (index, decoder) }
    }

    func stop() {
        inbox.stop()
        videoPackets.abort()
        audioPackets.abort()
        source.cancel()
        stopRecording()
    }

    func skipQueued(before target: Double) {
        if videoStream != nil {
            let keyframe = videoPackets.dropBefore { item in
                guard let packet = item.packet, packet.isKeyframe, let time = packet.presentationTime?.seconds else { return false }
                return time <= target
            }
            if let time = keyframe?.packet?.presentationTime?.seconds {
                audioPackets.removeAll { item in item.packet?.endSeconds.map { $0 <= time } ?? false }
            }
        } else {
            audioPackets.removeAll { item in item.packet?.endSeconds.map { $0 <= target } ?? false }
        }
        // What a timeshift holds between the queues and the live edge is passed over too.
        source.timeshift?.skipAhead(to: target)
    }

    func record(_ recording: Recording, videoStream: Int?, audioStream: Int?, onFailure: @escaping @Sendable (OutputError) -> Void) throws {
        guard let file = source.demuxer else {
            throw OutputError(recording.path, "only inputs FFmpeg reads are recorded while playing (start recording before opening an RTSP stream; `reel rtp receive --record` records RTP)")
        }
        let new = try SessionRecorder(recording, demuxer: file, videoStream: videoStream, audioStream: audioStream, onFailure: onFailure)
        recorder.withLock { current in
            defer { current = new }
            return current
        }?.stop()
    }

    func stopRecording() {
        recorder.withLock { current in
            defer { current = nil }
            return current
        }?.stop()
    }

    private func isStopping(_ sink: any FrameSink) -> Bool { inbox.isStopped || sink.hasFailed }

    // MARK: Read thread

    private func readLoop(_ sink: any FrameSink, serial start: Int) {
        var serial = start
        // Changes only with a seek (an audio switch comes with one): read there, not per packet.
        var audioStream = self.audioStream
        var atEnd = false
        while !isStopping(sink) {
            // At the end of the input, nothing is read until a seek starts a timeline.
            if let seek = atEnd ? inbox.waitForSeek() : inbox.takeSeek() {
                serial = seek.serial
                atEnd = false
                if let switched = audioSwitch.withLock({ $0 }), switched.serial <= serial { audioStream = switched.index }
                do {
                    landingPackets = try seekLandingAtOrBefore(seek.target)
                } catch {
                    sink.report(.error(PlayerError(error as? InputError ?? InputError(.other, operation: .seek, url: source.url))))
                }
                if videoDecoding == .synchronous { videoCodec?.flush() }
                sink.subtitlesRestart()
                continue
            }
            if atEnd { continue }
            do {
                let held = landingPackets.isEmpty ? nil : landingPackets.removeFirst()
                guard let packet = try held ?? source.readPacket() else {
                    try endOfInput(sink, serial: serial)
                    atEnd = true
                    continue
                }
                bytesRead.withLock { $0 += Int64(packet.data.count) }
                let isVideo = packet.streamIndex == videoStream
                if isVideo || packet.streamIndex == audioStream, let end = packet.endSeconds {
                    try sink.read(isVideo ? .video : .audio, from: packet.presentationTime?.seconds ?? end, to: end, serial: serial)
                }
                if source.timeshift == nil { recorder.withLock { $0 }?.take(packet) }
                if packet.streamIndex == audioStream {
                    audioPackets.put(QueuedPacket(packet: packet), serial: serial)
                } else if isVideo {
                    if videoDecoding == .asynchronous {
                        videoPackets.put(QueuedPacket(packet: packet), serial: serial)
                    } else {
                        try videoCodec?.decode(packet) { frame in sink.deliver(frame, serial: serial) }
                    }
                } else {
                    sink.subtitle(packet)
                }
            } catch is TimeshiftRing.Woken {
                continue
            } catch {
                if isStopping(sink) { return }
                sink.fail(error)
                return
            }
        }
    }

    /// Seeks to the video keyframe at or before `target` and returns the packets read to
    /// find it. A demuxer without an index (MPEG-TS) can land after that keyframe, even
    /// after the last one (then nothing could be decoded: `--start 1` of a 2 s TS showed
    /// nothing); the seek is then made again from further back, 1 s, 2 s, 4 s, 8 s, and at
    /// last from the input's start.
    private func seekLandingAtOrBefore(_ target: Double) throws -> [Packet] {
        // Reel's own RTP source is live: it has nowhere to land.
        guard let file = source as? Demuxer, let videoStream else {
            try source.seek(to: MediaTime(seconds: target))
            return []
        }
        let startTime = info.format.startTime ?? 0
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

    private func endOfInput(_ sink: any FrameSink, serial: Int) throws {
        if videoDecoding == .asynchronous {
            videoPackets.put(QueuedPacket(packet: nil), serial: serial)
        } else if videoStream != nil {
            try videoCodec?.drain { frame in sink.deliver(frame, serial: serial) }
            sink.streamEnded(.video, serial: serial)
        }
        if audioStream != nil { audioPackets.put(QueuedPacket(packet: nil), serial: serial) }
        sink.readerReachedEnd(serial: serial)
    }

    // MARK: Decode threads

    /// Decodes the packets of one stream as they come, flushing the decoder when a seek
    /// starts a new timeline; at the end marker drains it and ends the stream.
    private func decodeLoop(_ sink: any FrameSink, _ packets: BlockingQueue<QueuedPacket>, _ decoder: Decoder?, takesSwitches: Bool,
                            type: MediaType) {
        guard var decoder else { return }
        var decoderSerial = -1
        while let (item, serial) = packets.take() {
            if serial != decoderSerial {
                // A track switch's new timeline brings the new stream's decoder (set
                // before the reader can queue a packet of that timeline).
                if takesSwitches, let switched = audioSwitch.withLock({ pending -> Decoder? in
                    guard let found = pending, found.serial <= serial else { return nil }
                    pending = nil
                    return found.decoder
                }) {
                    decoder = switched
                } else if decoderSerial >= 0 {
                    decoder.flush()
                }
                decoderSerial = serial
            }
            do {
                if let packet = item.packet {
                    try decoder.decode(packet) { frame in sink.deliver(frame, serial: serial) }
                } else {
                    try decoder.drain { frame in sink.deliver(frame, serial: serial) }
                    sink.streamEnded(type, serial: serial)
                }
            } catch {
                if !isStopping(sink) { sink.fail(error) }
                return
            }
        }
    }
}

extension FrameSink {
    /// Hands over a frame as FFmpeg's decoder gives it.
    fileprivate func deliver(_ frame: DecodedFrame, serial: Int) {
        switch frame {
        case .video(let video): self.video(video, serial: serial)
        case .audio(let audio): self.audio(audio, serial: serial)
        }
    }
}
