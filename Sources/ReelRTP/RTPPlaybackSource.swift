import Foundation
import ReelCore
import ReelFFmpeg

/// An RTP session as a player's input: Reel's receiver hands access units to the read
/// thread as packets (Annex B, presentation times from the RTP timestamps), so
/// `reel play stream.sdp` and `Player.open("stream.sdp")` use Reel's jitter buffer,
/// depacketizers, SRTP and transports rather than FFmpeg's RTP demuxer.
final class RTPPlaybackSource: PlaybackSource, @unchecked Sendable {
    package let url: String
    package private(set) var info: MediaInfo
    private let description: SessionDescription
    private let receiver: RTPReceiver
    private let lock = ConditionLock()
    // Guarded by `lock`.
    private var pending: [AccessUnit] = []
    private var cancelled = false
    /// Read-thread only.
    private var timeline: ContinuousTimeline
    /// Each access unit's duration (RTP carries none): the shortest step between the times
    /// of consecutive units, which B-frames' reordering does not lengthen. Read-thread only.
    private var frameInterval = FrameIntervalEstimate()
    /// Access units dropped because the player fell this far behind.
    private(set) var overflowed = 0
    static let pendingLimit = 512
    private let idleTimeout: Double?

    /// Tells the sender to stop (an RTSP session's TEARDOWN), after the receiver stopped.
    private let ending: (@Sendable () -> Void)?
    /// A server's stream (RTSP) is opened again when lost; a raw RTP session is not.
    package let reopensWhenLost: Bool

    /// Receives the stream an SDP file describes.
    /// - Parameter latency: the receiver's jitter allowance; its default when nil.
    convenience init(sdpPath: String, timeout: Double?, latency: Double? = nil) throws {
        guard let data = FileManager.default.contents(atPath: sdpPath), data.count <= 1 << 20 else {
            throw InputError(.notFound, operation: .open, url: sdpPath)
        }
        let description: SessionDescription
        do {
            description = try SessionDescription(parsing: String(decoding: data, as: UTF8.self))
        } catch {
            throw InputError(.invalidData, operation: .open, url: sdpPath, detail: "\(error)")
        }
        var configuration = RTPReceiver.Configuration(description: description)
        configuration.waitForKeyframe = true
        if let latency { configuration.latency = latency }
        try self.init(url: sdpPath, receiver: try RTPReceiver(configuration: configuration), format: ("rtp", "RTP (Reel's receiver)"), timeout: timeout)
    }

    /// Receives with `receiver`; `started` runs once it receives (an RTSP PLAY), `ending`
    /// once it stopped (a server's session, which a live player opens again when lost).
    init(url: String, receiver: RTPReceiver, format: (name: String, longName: String), timeout: Double?,
         started: () throws -> Void = {}, ending: (@Sendable () -> Void)? = nil) throws {
        self.url = url
        reopensWhenLost = ending != nil
        idleTimeout = timeout
        description = receiver.configuration.description
        self.receiver = receiver
        self.ending = ending
        timeline = ContinuousTimeline(clockRate: description.clockRate)
        var stream = StreamDescription(index: 0, type: .video, codecName: description.codec == .h264 ? "h264" : "hevc", timeBase: Rational(1, description.clockRate))
        let format = FormatDescription(url: url, name: format.name, longName: format.longName, startTime: 0, duration: nil,
                                       size: nil, bitRate: nil, streamCount: 1, tags: [:])
        info = MediaInfo(format: format, chapters: [], streams: [stream])
        do {
            try startReceiving()
            try started()
        } catch {
            receiver.stopSynchronously()
            ending?()
            throw error
        }
        // The picture size from the first keyframe's sequence parameter set.
        guard let first = waitForFirstUnit(timeout: timeout) else {
            receiver.stopSynchronously()
            ending?()
            throw InputError(.timedOut(seconds: timeout ?? 0), operation: .open, url: url, detail: "no keyframe arrived from \(receiver.configuration.transport.label)")
        }
        if let size = Self.pictureSize(first, codec: description.codec) {
            stream.width = size.width
            stream.height = size.height
        }
        info.streams = [stream]
    }

    deinit {
        receiver.stopSynchronously()
        ending?()
    }

    private func startReceiving() throws {
        let started = DispatchSemaphore(value: 0)
        let failure = ErrorBox()
        let receiver = self.receiver
        Task {
            do {
                try await receiver.start { [weak self] unit in self?.enqueue(unit) }
            } catch {
                failure.error = error
            }
            started.signal()
        }
        started.wait()
        if let error = failure.error { throw InputError(.other, operation: .open, url: url, detail: "\(error)") }
    }

    private func enqueue(_ unit: AccessUnit) {
        lock.withLock {
            if pending.count >= Self.pendingLimit {
                pending.removeFirst()
                overflowed += 1
            }
            pending.append(unit)
            lock.broadcast()
        }
    }

    private func waitForFirstUnit(timeout: Double?) -> AccessUnit? {
        let deadline = timeout.map { monotonicSeconds() + $0 }
        return lock.withLock {
            while pending.isEmpty && !cancelled && !receiver.isFinished {
                if let deadline {
                    let left = deadline - monotonicSeconds()
                    if left <= 0 { return nil }
                    lock.wait(seconds: min(left, 0.1))
                } else {
                    lock.wait(seconds: 0.1)
                }
            }
            return pending.first
        }
    }

    package func bestStream(of type: MediaType) -> Int? { type == .video ? 0 : nil }

    package func makeDecoder(streamIndex: Int, options: DecoderOptions, framePool: FramePool) throws -> Decoder {
        let stream = info.streams[0]
        return try Decoder(videoCodec: stream.codecName, configuration: [], width: stream.width ?? 0, height: stream.height ?? 0,
                           timeBase: stream.timeBase, options: options, framePool: framePool)
    }

    package func readPacket() throws -> Packet? {
        let waitingSince = monotonicSeconds()
        let next: AccessUnit? = try lock.withLock {
            while pending.isEmpty {
                if cancelled { throw InputError(.cancelled, operation: .read, url: url) }
                // A live stream has no end but silence: after the input timeout it has ended.
                if receiver.isFinished || idleTimeout.map({ monotonicSeconds() - waitingSince >= $0 }) == true { return nil }
                lock.wait(seconds: 0.1)
            }
            return pending.removeFirst()
        }
        guard let unit = next else { return nil }
        let pts = timeline.time(for: unit.timestamp, restarted: unit.followsRestart)
        let duration = frameInterval.next(pts, restarted: unit.followsRestart, clockRate: Int64(description.clockRate))
        let annexB = unit.annexB
        // Zeroed padding after the bytes, as libavcodec's readers may look past the end.
        let storage = HeapStorage(byteCount: annexB.count + 64)
        annexB.withUnsafeBytes { storage.bytes.copyMemory(from: $0) }
        return Packet(streamIndex: 0, pts: pts, dts: nil, duration: duration, timeBase: info.streams[0].timeBase,
                      isKeyframe: unit.isKeyframe, isCorrupt: unit.isCorrupted,
                      data: UnsafeRawBufferPointer(start: storage.bytes.baseAddress, count: annexB.count), owner: storage)
    }

    package func seek(to time: MediaTime) throws {
        throw InputError(.other, operation: .seek, url: url, detail: "a live RTP stream cannot seek")
    }

    package func cancel() {
        lock.withLock {
            cancelled = true
            lock.broadcast()
        }
    }

    private static func pictureSize(_ unit: AccessUnit, codec: VideoCodec) -> (width: Int, height: Int)? {
        for nal in unit.units where !nal.isEmpty {
            switch (codec, codec.nalType(nal[0])) {
            case (.h264, 7): if let sps = try? H264SequenceParameterSet(nalUnit: nal) { return (sps.width, sps.height) }
            case (.h265, 33): if let sps = try? H265SequenceParameterSet(nalUnit: nal) { return (sps.width, sps.height) }
            default: continue
            }
        }
        return nil
    }
}

private final class ErrorBox: @unchecked Sendable {
    var error: Error?
}

extension RTPReceiver {
    /// Stops from any thread without suspending (a deinit, a player's thread): the
    /// receiving thread is waited for, then the transport closes in the background. Not
    /// before: the thread reads the transport's sockets until it ends (ThreadSanitizer
    /// caught a socket closed under a read when the close came first).
    func stopSynchronously() {
        end(nil)
        blockUntilFinished()
        let transport = self.transport
        Task.detached { await transport.stop() }
    }
}
