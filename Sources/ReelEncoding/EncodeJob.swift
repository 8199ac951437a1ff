import Foundation
import ReelCore
import ReelFFmpeg

/// How far an encode has got, for a progress bar or a live stats line.
public struct EncodeProgress: Sendable {
    /// The encoder's counts so far.
    public var statistics: EncoderStatistics
    /// Media time of the last frame handed to the encoder.
    public var mediaSeconds: Double
    /// Wall-clock seconds since the encode started.
    public var elapsedSeconds: Double
    /// Between 0 and 1 when the input's length is known.
    public var fraction: Double?
}

/// What an encode did, printed as JSON by `reel encode --stats`.
public struct EncodeReport: Sendable, Codable, Equatable {
    /// Pictures read from the input.
    public var framesIn: Int
    /// Pictures dropped before the encoder (a live input faster than the encoder).
    public var framesDropped: Int
    /// Encoded samples written.
    public var samplesOut: Int
    /// Keyframes among them.
    public var keyframesOut: Int
    /// Bytes of encoded video.
    public var bytesOut: Int
    /// Seconds of media encoded.
    public var mediaSeconds: Double
    /// Wall-clock seconds the encode took.
    public var elapsedSeconds: Double
    /// Bits per second of video over the media duration.
    public var averageBitRate: Double
    /// RTP packets sent, for an RTP destination.
    public var packetsSent: Int?
    /// The input's audio codec when the output has no audio: it is not a container.
    public var audioLeftOut: String?
    /// The input's audio codec when the container could not take it and its audio was
    /// re-encoded to AAC.
    public var audioReencodedFrom: String?
}

/// One encode from an ``EncoderInput`` through an ``EncoderSession`` into one or more
/// ``EncodeDestination``s (the same samples to each): frames read on the caller's thread
/// (waiting for room when the input is a file, never when it is live), samples written on
/// the session's thread.
public final class EncodeJob: @unchecked Sendable {
    private let input: any EncoderInput
    private let session: EncoderSession
    private let destinations: [EncodeDestination]
    private let maxDuration: Double?
    private let forcedKeyframes: Set<Int>
    private let sinkLock = ConditionLock()
    private var sinkError: Error?
    private var audioLeftOut: String?
    private var audioReencodedFrom: String?
    /// ``stop()`` was called: the encode ends after the frame at hand.
    private var stopRequested = false

    /// - Parameters:
    ///   - input: where the frames come from.
    ///   - codec: H.264 or H.265.
    ///   - properties: the encoder's settings; the expected frame rate is the input's.
    ///   - destination: where the samples go.
    ///   - copies: where the same samples go too (a live stream and a file beside it:
    ///     encoded once, written to each).
    ///   - duration: stop after this much media time (seconds).
    ///   - forcedKeyframes: frame numbers (from 0) that must be keyframes.
    public init(input: any EncoderInput, codec: VideoCodec, properties: EncoderProperties, destination: EncodeDestination,
                copies: [EncodeDestination] = [], duration: Double? = nil, forcedKeyframes: Set<Int> = []) throws {
        if let duration, !(duration > 0) { throw EncoderError(.invalidProperty, "the duration must be positive, got \(duration)") }
        var properties = properties
        properties.expectedFrameRate = input.frameRate
        if ([destination] + copies).contains(where: \.isWebRTC) {
            guard codec == .h264 else { throw EncoderError(.invalidProperty, "WHIP sends H.264, not \(codec.rawValue)") }
            // WebRTC receivers decode in arrival order, as browsers do: no B-frames (OBS
            // turns them off for WHIP too).
            properties.allowFrameReordering = false
        }
        self.input = input
        session = try EncoderSession(codec: codec, width: input.width, height: input.height, properties: properties)
        destinations = [destination] + copies
        maxDuration = duration
        self.forcedKeyframes = forcedKeyframes
    }

    /// Encodes until the input ends or the duration is reached; `progress` is called on
    /// the caller's thread about every 100 ms.
    public func run(progress: (EncodeProgress) -> Void = { _ in }) throws -> EncodeReport {
        try session.prepare()
        defer { session.invalidate() }
        guard let format = session.formatDescription else { throw EncoderError(.invalidState, "the session has no format") }
        // Used under sinkLock only, from here and from the session's thread.
        nonisolated(unsafe) let sinks = try destinations.map { try makeSink(format, for: $0) }
        let sender = sinks.lazy.compactMap { $0 as? RTPSender }.first
        session.setOutputHandler { [self] sample in
            sinkLock.withLock {
                guard sinkError == nil else { return }
                do { for sink in sinks { try sink.write(sample) } } catch { sinkError = error }
            }
        }
        let started = monotonicSeconds()
        var lastReport = started, index = 0, mediaSeconds = 0.0, firstTime: Double?, cutShort = false
        let frameRate = input.frameRate.doubleValue ?? 25
        let expected = input.frameCount.map { count in maxDuration.map { min(count, Int(($0 * frameRate).rounded(.up))) } ?? count }
        func writeAudioReadSoFar() throws {
            guard let file = input as? DecodedFileInput else { return }
            let packets = file.takeAudioPackets()
            try sinkLock.withLock { for packet in packets { for sink in sinks { try sink.write(audio: packet) } } }
        }
        while !sinkLock.withLock({ stopRequested }), let (frame, time) = try input.nextFrame() {
            if firstTime == nil, input.isLive, let sender {
                // Sender reports map RTP time to capture time: the input's clock, or the
                // moment a live input handed the picture over.
                let anchor = input.captureOrigin.map { (captured: $0, media: 0.0) } ?? (captured: monotonicSeconds(), media: time.seconds)
                sinkLock.withLock { sender.anchorMediaClock(capturedAt: anchor.captured, mediaTime: anchor.media) }
            }
            let start = firstTime ?? time.seconds
            firstTime = start
            if let maxDuration, time.seconds - start >= maxDuration - 1e-9 {
                cutShort = true
                break
            }
            if !input.isLive { session.waitForQueueSpace() }
            if destinations.contains(where: \.isStream), !input.isLive {
                // A file sent to a server goes at its frame rate, as ffmpeg's -re sends it.
                let due = started + (time.seconds - start) - monotonicSeconds()
                if due > 0 { usleep(UInt32(min(due, 10) * 1_000_000)) }
            }
            let requested = sinkLock.withLock { sinks.contains { $0.takeKeyframeRequest() } }
            try session.encode(frame, presentationTime: time, forceKeyframe: forcedKeyframes.contains(index) || requested)
            index += 1
            mediaSeconds = time.seconds - start + 1 / frameRate
            try writeAudioReadSoFar()
            if let error = sinkLock.withLock({ sinkError }) { throw error }
            let now = monotonicSeconds()
            if now - lastReport >= 0.1 {
                lastReport = now
                progress(EncodeProgress(statistics: session.statistics, mediaSeconds: mediaSeconds, elapsedSeconds: now - started,
                                        fraction: expected.map { $0 > 0 ? min(1, Double(index) / Double($0)) : 1 }))
            }
        }
        // The audio read while the last pictures were decoded (the end of the file).
        if !cutShort { try writeAudioReadSoFar() }
        try BlockingWait.complete(session)
        if let error = sinkLock.withLock({ sinkError }) { throw error }
        try sinkLock.withLock { for sink in sinks { try sink.finish() } }
        let statistics = session.statistics
        let elapsed = monotonicSeconds() - started
        progress(EncodeProgress(statistics: statistics, mediaSeconds: mediaSeconds, elapsedSeconds: elapsed, fraction: expected == nil ? nil : 1))
        return EncodeReport(framesIn: statistics.framesIn, framesDropped: statistics.framesDropped, samplesOut: statistics.samplesOut,
                            keyframesOut: statistics.keyframesOut, bytesOut: statistics.bytesOut, mediaSeconds: mediaSeconds,
                            elapsedSeconds: elapsed, averageBitRate: mediaSeconds > 0 ? Double(statistics.bytesOut) * 8 / mediaSeconds : 0,
                            packetsSent: sender?.packetsSent, audioLeftOut: audioLeftOut, audioReencodedFrom: audioReencodedFrom)
    }

    /// Ends the encode as if the input ended now (Ctrl-C on a camera): what was encoded is
    /// written out, files are finished and a WHIP session is ended. From any thread.
    public func stop() {
        sinkLock.withLock { stopRequested = true }
    }

    /// How long an output stays open after its last packet: an SRT receiver releases each
    /// packet its latency after it was sent, and drops what it still holds when the sender
    /// closes, so an `srt://` output waits a second, or its `latency` (microseconds, as
    /// FFmpeg takes it) and a fifth of a second more when that is longer.
    static func closingHold(_ url: String) -> Double {
        guard url.lowercased().hasPrefix("srt://") else { return 0 }
        let latency = URLComponents(string: url)?.queryItems?.first { $0.name == "latency" }?.value.flatMap(Double.init).map { $0 / 1_000_000 } ?? 0
        return max(1, latency + 0.2)
    }

    private var inputAudioCodec: String? {
        guard let file = input as? DecodedFileInput, let index = file.audioStreamIndex else { return nil }
        return file.demuxer.info.streams.first { $0.index == index }?.codecName
    }

    private func makeSink(_ format: VideoFormatDescription, for destination: EncodeDestination) throws -> any EncodedSampleSink {
        switch destination {
        case .annexB(let path, let repeatParameterSets):
            audioLeftOut = inputAudioCodec
            return try AnnexBWriter(path: path, repeatParameterSets: repeatParameterSets)
        case .container(let path):
            let file = input as? DecodedFileInput
            let muxer = try EncodedSampleMuxer(path: path, format: format, timescale: EncoderSession.timescale, frameRate: input.frameRate,
                                               audio: file?.audioStreamIndex, of: file?.demuxer)
            if muxer.reencodesAudio { audioReencodedFrom = inputAudioCodec }
            return ContainerSink(muxer: muxer, frameRate: input.frameRate)
        case .stream(let url, let container):
            let file = input as? DecodedFileInput
            let muxer = try EncodedSampleMuxer(path: url, container: container, format: format, timescale: EncoderSession.timescale,
                                               frameRate: input.frameRate, audio: file?.audioStreamIndex, of: file?.demuxer)
            if muxer.reencodesAudio { audioReencodedFrom = inputAudioCodec }
            return ContainerSink(muxer: muxer, frameRate: input.frameRate, holdingOpen: Self.closingHold(url))
        case .whip(let url, let token):
            let file = input as? DecodedFileInput
            return try WHIPSink(url: url, token: token, format: format, frameRate: input.frameRate,
                                audio: file.flatMap { file in file.audioStreamIndex.map { (file.demuxer, $0) } })
        case .rtp(let url, let sdpPath, let mtu):
            audioLeftOut = inputAudioCodec
            let sender = try RTPSender(url: url, format: format, mtu: mtu, pacesInRealTime: !input.isLive)
            if let sdpPath { try sender.writeSessionDescription(to: sdpPath) }
            return sender
        }
    }
}

/// Waits on the caller's thread for a session to complete its frames (the job runs
/// outside Swift's concurrency, which must not be needed to wake it).
enum BlockingWait {
    static func complete(_ session: EncoderSession) throws {
        let done = ConditionLock()
        nonisolated(unsafe) var outcome: EncoderError??
        session.complete { error in done.withLock { outcome = .some(error); done.broadcast() } }
        try done.withLock {
            while outcome == nil { done.wait() }
            if let error = outcome! { throw error }
        }
    }
}
