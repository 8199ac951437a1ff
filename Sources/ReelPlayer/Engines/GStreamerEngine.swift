import Foundation
import ReelCore
import ReelFFmpeg
import ReelGStreamer

/// The GStreamer engine: GStreamer's `uridecodebin3` (its plug-ins pick the demuxer and
/// decoder, adaptive demuxers and hardware decoders included) decoding into appsinks, and
/// a thread per stream that hands what they hold to the shell as Reel's frames.
///
/// Why not `playbin3`, GStreamer's own player: its sinks would show the pictures and play
/// the sound on GStreamer's clock. Taking the decoded frames instead keeps the shell's
/// display, clocks, A/V sync, tempo, tap, snapshots, 360° view and picture-in-picture the
/// same whichever engine decodes. The appsinks do not sync to a clock; the shell's bounded
/// frame queues hold the pipeline back, as the FFmpeg engine's decoders are held back.
final class GStreamerEngine: PlaybackEngine, @unchecked Sendable {
    /// Replaced only by ``prepare(videoStream:audioStream:options:framePool:)``, before
    /// any thread pulls from it.
    private(set) var decoder: GStreamerDecoder
    private(set) var info: MediaInfo
    private let opening: Opening
    /// The timeline (serial) the pipeline's output belongs to, set when a seek has flushed
    /// it. A seek is made while no stream thread is pulling (they pull as readers, the seek
    /// writes), so a frame belongs to the timeline read before it was pulled, and no frame
    /// of either timeline is taken for one of the other.
    private var appliedSerial = 0
    private let pulling = ReadWriteLock()
    private let inbox = EngineInbox()
    /// The streams the session plays (``prepare(videoStream:audioStream:options:framePool:)``).
    private var hasVideo = false
    private var hasAudio = false

    /// GStreamer's id of each stream in ``info``, by the index given it there (its place
    /// among the collection's audio and video streams).
    private let streamIDs: [String]

    /// The size of the pictures last queued (an adaptive stream's variant), video thread.
    private var lastSize: (width: Int, height: Int)?
    /// When a WebRTC input last gave a frame of any stream (monotonic seconds): a server
    /// that goes away leaves ICE connected here for long (GStreamer 1.22 checks no consent),
    /// so silence is what says it is lost.
    private let lastFrameAt = LockedValue(MonotonicPlaybackClock.shared.now)
    /// How long a WebRTC input may give nothing before it is lost and opened again.
    static let webRTCSilenceLimit = 3.0
    private let variant = LockedValue<String?>(nil)
    /// The variant being decoded (`1280x720`), once a picture came.
    var currentVariant: String? { variant.withLock { $0 } }

    /// Opens `url` (a path or a URI) for the streams wanted, waiting up to `timeout`; an
    /// adaptive stream's variants are kept at or below `maximumBitrate` bits/s when given,
    /// and its segments downloaded at most `readAhead` seconds ahead.
    /// A WHEP endpoint (``WebRTCEndpoint``) is received through `webrtcbin`, with
    /// `webRTC`'s bearer token and jitter-buffer latency (seconds).
    init(url: String, video: Bool, audio: Bool, timeout: Double?, maximumBitrate: Int? = nil, readAhead: Double? = nil,
         deinterlace: GStreamerDecoder.Deinterlacing = GStreamerDecoder.Deinterlacing(.auto, .field), tls: TLSVerification = TLSVerification(),
         webRTC: (token: String?, latency: Double) = (nil, Player.Configuration().webRTCLatency)) throws {
        var streams: GStreamerDecoder.Streams = []
        if video { streams.insert(.video) }
        if audio { streams.insert(.audio) }
        opening = Opening(url: url, streams: streams, timeout: timeout, maximumBitrate: maximumBitrate, readAhead: readAhead, deinterlace: deinterlace,
                          tls: tls, webRTC: webRTC)
        decoder = try opening.decoder()
        (info, streamIDs) = Self.describe(decoder, url: url)
    }

    /// What the input was opened with, to open it again with another audio stream.
    private struct Opening {
        let url: String
        let streams: GStreamerDecoder.Streams
        let timeout: Double?
        let maximumBitrate: Int?
        let readAhead: Double?
        let deinterlace: GStreamerDecoder.Deinterlacing
        let tls: TLSVerification
        let webRTC: (token: String?, latency: Double)

        /// A decoder of the input, decoding audio stream `audioStreamID` when given.
        func decoder(audioStreamID: String? = nil) throws -> GStreamerDecoder {
            if let endpoint = WebRTCEndpoint(url), endpoint.role == .watch {
                let signalling = WebRTCHTTPSignalling(endpoint: endpoint, given: url, token: webRTC.token, timeout: timeout ?? 15)
                do {
                    return try GStreamerDecoder(webRTC: signalling, streams: streams, timeout: timeout ?? 15, latency: Int((webRTC.latency * 1000).rounded()))
                } catch let error as GStreamerError {
                    throw GStreamerEngine.inputError(error, url: url, timeout: timeout)
                }
            }
            let uri = url.contains("://") ? url : URL(fileURLWithPath: url).absoluteString
            do {
                return try GStreamerDecoder(uri: uri, streams: streams, timeout: timeout ?? 3600, maximumBitrate: maximumBitrate,
                                            readAhead: readAhead, audioStreamID: audioStreamID, deinterlace: deinterlace, tls: tls)
            } catch {
                throw GStreamerEngine.inputError(error, url: url, timeout: timeout, tls: tls)
            }
        }
    }

    /// Whether `url` names a network input rather than a local file (a path or `file:`).
    private static func isNetwork(_ url: String) -> Bool {
        url.contains("://") && !url.lowercased().hasPrefix("file:")
    }

    /// GStreamer's failure to open `url` in the words the FFmpeg engine uses for the same
    /// failure (one line, the same reasons), with GStreamer's message where it says more.
    static func inputError(_ error: GStreamerError, url: String, timeout: Double?, tls: TLSVerification = TLSVerification()) -> InputError {
        let isNetwork = isNetwork(url)
        let isHTTP = url.lowercased().hasPrefix("http")
        func failed(_ reason: InputError.Reason, _ detail: String? = nil) -> InputError {
            InputError(reason, operation: .open, url: url, detail: detail)
        }
        if !isNetwork {
            let path = url.contains("://") ? (URL(string: url)?.path ?? url) : url
            if !FileManager.default.fileExists(atPath: path) { return failed(.notFound) }
            if !FileManager.default.isReadableFile(atPath: path) { return failed(.permissionDenied) }
            if (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 0 { return failed(.emptyInput) }
        }
        switch error.kind {
        case .timedOut: return failed(.timedOut(seconds: timeout ?? 0), error.message)
        case .notAuthorized: return failed(isHTTP ? .httpStatus(401) : .permissionDenied)
        // GStreamer says "not found" for more than an HTTP 404 (an adaptive demuxer's failed
        // fragment, too): its own words follow.
        case .notFound:
            if isNetwork, tls.isOn, error.message.contains("fragments"),
               let refused = ConnectionCheck.segmentCertificateFailure(url, tls: tls, timeout: timeout) { return refused }
            return failed(isHTTP ? .httpStatus(404) : .notFound, error.message)
        case .noStreams: return failed(.noStreams)
        case .notMedia, .cannotRead, .other:
            if isNetwork, ConnectionCheck.isRefused(url) { return failed(.connectionRefused) }
            // souphttpsrc (libsoup 3) says only "Internal data stream error" of a certificate
            // it refused: FFmpeg's TLS tells which, in the FFmpeg engine's words.
            if isNetwork, tls.isOn, url.lowercased().hasPrefix("https:"),
               let refused = ConnectionCheck.certificateFailure(url, tls: tls, timeout: timeout) { return refused }
            if error.kind == .other { return failed(.other, error.description) }
            return failed(error.kind == .notMedia ? .invalidData : .other, error.message)
        case .missingPlugin: return failed(.unsupportedFormat, error.message)
        }
    }

    /// The input as the shell needs it: its duration and its audio and video streams as
    /// GStreamer's stream collection lists them (the tracks), the ones decoded with the
    /// format their sinks receive. Subtitle streams are not listed: this engine does not
    /// decode them.
    private static func describe(_ decoder: GStreamerDecoder, url: String) -> (MediaInfo, [String]) {
        let listed = decoder.collection.filter { $0.type == .video || $0.type == .audio }
        let playing = (video: decoder.playingStream(.video), audio: decoder.playingStream(.audio))
        let (video, audio) = (decoder.videoFormat, decoder.audioFormat)
        let streams = listed.enumerated().map { index, source in
            var stream = StreamDescription(index: index, type: source.type, codecName: source.codec, timeBase: Rational(1, 1_000_000_000))
            stream.disposition = ["default": source.isDefault]
            stream.language = source.language
            if let language = source.language { stream.tags["language"] = language }
            if let title = source.title { stream.tags["title"] = title }
            if source.type == .video {
                let decoded = source.id == playing.video ? video : nil
                stream.width = decoded?.width ?? source.width
                stream.height = decoded?.height ?? source.height
                stream.averageFrameRate = decoded?.frameRate
            } else {
                let decoded = source.id == playing.audio ? audio : nil
                stream.sampleRate = decoded?.sampleRate ?? source.sampleRate
                stream.channels = decoded?.channels ?? source.channels
            }
            return stream
        }
        let isWebRTC = decoder.isWebRTC
        let format = FormatDescription(url: url, name: isWebRTC ? "whep" : "gstreamer", longName: isWebRTC ? "WebRTC (WHEP) through GStreamer's webrtcbin" : "GStreamer uridecodebin3", startTime: 0,
                                       duration: decoder.duration, size: nil, bitRate: nil, streamCount: streams.count, tags: decoder.metadata)
        return (MediaInfo(format: format, chapters: [], streams: streams), listed.map(\.id))
    }

    var kind: PlaybackEngineKind { .gstreamer }
    /// A WebRTC input is opened again when it is lost (a new WHEP session), as other live inputs are.
    var capabilities: EngineCapabilities { EngineCapabilities(reopensWhenLost: decoder.isWebRTC) }
    var statistics: EngineStatistics {
        var statistics = EngineStatistics(videoDecoder: decoder.videoDecoder, reception: decoder.webRTCReception)
        if let bandwidth = decoder.adaptiveBandwidth {
            statistics.adaptiveBandwidth = bandwidth
            statistics.variant = currentVariant
        }
        return statistics
    }

    /// The stream of `type` GStreamer decodes by default (the one the input marks).
    func bestStream(of type: MediaType) -> Int? {
        if let playing = decoder.playingStream(type), let index = streamIDs.firstIndex(of: playing) { return index }
        return info.streams.first { $0.type == type }?.index
    }

    /// An audio stream other than GStreamer's default: the input is opened again with it
    /// chosen from the start (decodebin3's `select-stream`). Selecting it in the open
    /// pipeline and seeking back to the start, as before, failed the seek or the stream
    /// about once in a hundred opens (GStreamer 1.22), as its outputs were relinked.
    func prepare(videoStream: Int?, audioStream: Int?, options: DecoderOptions, framePool: FramePool) throws {
        hasVideo = videoStream != nil
        hasAudio = audioStream != nil
        guard let audioStream else { return }
        let wanted = try audioStreamID(audioStream)
        guard wanted != decoder.playingStream(.audio) else { return }
        decoder = try opening.decoder(audioStreamID: wanted)
        (info, _) = Self.describe(decoder, url: opening.url)
        guard decoder.playingStream(.audio) != wanted else { return }
        try select(audio: audioStream)
        try decoder.seek(to: 0, exact: true)
    }

    /// GStreamer's id of audio stream `index`; an index that is not one (an application's,
    /// or another engine's numbering) is an error.
    private func audioStreamID(_ index: Int) throws -> String {
        guard streamIDs.indices.contains(index), info.streams[index].type == .audio else { throw DecodeError(.noSuchStream(.audio)) }
        return streamIDs[index]
    }

    /// Plays audio stream `index` with the picture decoded now.
    private func select(audio index: Int) throws {
        try decoder.select([decoder.playingStream(.video), try audioStreamID(index)].compactMap { $0 })
    }

    /// Stops the stream threads; a WebRTC session is ended at its server at once (the
    /// process may end before the decoder is released).
    func stop() {
        inbox.stop()
        decoder.endSession()
    }

    /// As the FFmpeg engine switches: the new stream is selected, and the exact seek that
    /// follows starts the new timeline with it (GStreamer's decoder is reused).
    func switchAudio(to index: Int) throws {
        try select(audio: index)
    }

    func seek(to target: Double, mode: SeekMode, serial: Int) {
        inbox.post(EngineSeek(target: target, mode: mode, serial: serial))
    }

    func start(into sink: any FrameSink, serial: Int, spawn: (String, @escaping @Sendable () -> Void) -> Void) {
        appliedSerial = serial
        spawn("reel.gst.seek") { [self] in followSeeks(sink) }
        if hasVideo {
            spawn("reel.gst.video") { [self] in
                pullLoop(sink, type: .video, poll: { try self.decoder.pollVideoFrame(waiting: $0) }) { frame, serial in
                    noteSize(of: frame, sink: sink)
                    sink.video(frame, serial: serial)
                }
            }
        }
        if hasAudio {
            spawn("reel.gst.audio") { [self] in
                pullLoop(sink, type: .audio, poll: { try self.decoder.pollAudioFrame(waiting: $0) }) { frame, serial in
                    sink.audio(frame, serial: serial)
                }
            }
        }
    }

    /// An adaptive stream's pictures changed size: another variant plays.
    private func noteSize(of frame: VideoFrame, sink: any FrameSink) {
        guard lastSize.map({ $0 != (frame.width, frame.height) }) ?? true else { return }
        lastSize = (frame.width, frame.height)
        variant.withLock { $0 = "\(frame.width)x\(frame.height)" }
        guard let bandwidth = decoder.adaptiveBandwidth else { return }
        sink.report(.variantChanged(width: frame.width, height: frame.height, bandwidth: bandwidth))
    }

    private func isStopping(_ sink: any FrameSink) -> Bool { inbox.isStopped || sink.hasFailed }

    /// Why a WebRTC input is lost: ICE says so, or nothing came for ``webRTCSilenceLimit``.
    private var lostWebRTC: String? {
        guard decoder.isWebRTC else { return nil }
        if let lost = decoder.lostConnection { return lost }
        let silent = MonotonicPlaybackClock.shared.now - lastFrameAt.withLock { $0 }
        return silent > Self.webRTCSilenceLimit ? "nothing came over WebRTC for \(Int(Self.webRTCSilenceLimit)) s" : nil
    }

    /// Carries out the seeks the shell sends: a flushing seek in the pipeline, then the
    /// new timeline is the one frames are pulled for. Passes on GStreamer's buffering
    /// percentage as it changes.
    private func followSeeks(_ sink: any FrameSink) {
        var lastPercent: Int?
        while !isStopping(sink) {
            if let percent = decoder.takeBufferingProgress(), percent != lastPercent {
                lastPercent = percent
                sink.report(.bufferingProgress(percent: percent))
            }
            guard let seek = inbox.waitForSeek(seconds: 0.05) else { continue }
            pulling.writing {
                do {
                    try decoder.seek(to: max(seek.target, 0), exact: seek.mode == .exact)
                } catch {
                    sink.report(.error(PlayerError(error)))
                }
                appliedSerial = seek.serial
            }
        }
    }

    /// Pulls one stream's frames in short waits and queues each on the timeline it was
    /// pulled for; at the stream's end queues the end, then waits for a seek.
    private func pullLoop<Frame>(_ sink: any FrameSink, type: MediaType, poll: (Double) throws -> GStreamerDecoder.Polled<Frame>,
                                 queue: (Frame, Int) -> Void) {
        var endedSerial: Int?
        while !isStopping(sink) {
            do {
                // Short waits: a seek waits for them to end.
                let (serial, polled) = try pulling.reading { () throws -> (Int, GStreamerDecoder.Polled<Frame>?) in
                    (appliedSerial, endedSerial == appliedSerial ? nil : try poll(0.02))
                }
                switch polled {
                case nil:
                    Thread.sleep(forTimeInterval: 0.01)
                case .frame(let frame):
                    lastFrameAt.withLock { $0 = MonotonicPlaybackClock.shared.now }
                    queue(frame, serial)
                case .end:
                    sink.streamEnded(type, serial: serial)
                    endedSerial = serial
                case .nothingYet:
                    if let lost = lostWebRTC { throw InputError(.other, operation: .read, url: opening.url, detail: lost) }
                    continue
                }
            } catch {
                if !isStopping(sink) { sink.fail(error) }
                return
            }
        }
    }
}
