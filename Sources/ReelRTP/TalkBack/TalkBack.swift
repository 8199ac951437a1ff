import Foundation
import ReelCore
import ReelFFmpeg

/// Talking to a camera: the ONVIF audio back-channel (Profile T) of an `rtsp://` camera, in
/// an RTSP session of its own beside whatever plays the camera. DESCRIBE with
/// `Require: www.onvif.org/ver20/backchannel`, SETUP of the audio the camera offers to
/// receive (`a=sendonly` in its description), PLAY, then G.711 (μ-law or A-law, whichever
/// the camera lists first) in RTP, 20 ms to a packet, paced in real time, over UDP or
/// interleaved in the connection; TEARDOWN at the end.
///
/// ```swift
/// let talk = try TalkBack(url: "rtsp://admin:secret@camera/stream", source: AudioFileTalkSource(path: "hello.wav"))
/// talk.start()
/// await talk.waitUntilFinished()   // the file said; or talk.stop()
/// ```
public final class TalkBack: @unchecked Sendable {
    /// How the audio goes: UDP (the camera's ports from SETUP), or in the RTSP connection.
    public enum Transport: String, Sendable {
        /// Datagrams to the port the camera named in its SETUP answer.
        case udp
        /// Interleaved in the RTSP connection (`$`-framed).
        case tcp
    }

    /// What was sent so far.
    public struct Statistics: Sendable, Equatable {
        /// RTP packets sent.
        public var packets = 0
        /// Samples sent in them.
        public var samples = 0
        /// Seconds of audio sent.
        public var seconds: Double { Double(samples) / Double(TalkBackPacketizer.sampleRate) }
    }

    /// How long a talk that said all waits before TEARDOWN: a camera's jitter buffer holds
    /// the last packets for about 200 ms.
    static let playOut = 0.3

    /// The codec the camera takes.
    public let codec: TalkBackPacketizer.Codec
    /// How the audio goes, as the camera agreed.
    public let transport: Transport
    private let client: RTSPClient
    private let source: any TalkSource
    private let datagrams: TalkDatagramSocket?
    private let lock = ConditionLock()
    private var packetizer: TalkBackPacketizer
    private var talking = true
    private var started = false
    private var stopping = false
    private var sent = Statistics()
    private var failure: Error?
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Sets up the back-channel of the camera at `url` (credentials in the URL are used
    /// when it asks). Throws a clear error when the camera refuses, has no back-channel, or
    /// offers only codecs Reel does not send.
    public init(url: String, source: any TalkSource, transport: Transport? = nil, timeout: Double = 10) throws {
        let client = try RTSPClient(url: url, timeout: timeout, requiring: ["www.onvif.org/ver20/backchannel"])
        do {
            let presentation = try client.describe(url: url)
            guard let backchannel = presentation.backchannel else {
                throw InputError(.invalidData, operation: .open, url: url, detail: "the camera offers no audio back-channel (no sendonly audio in its ONVIF description)")
            }
            let offered = backchannel.payloads.filter { $0.clockRate == TalkBackPacketizer.sampleRate && $0.channels == 1 }
            guard let (payload, codec) = offered.lazy.compactMap({ payload in payload.encoding.flatMap(TalkBackPacketizer.Codec.init(rawValue:)).map { (payload, $0) } }).first else {
                let names = backchannel.payloads.map { $0.encoding ?? "type \($0.type)" }.joined(separator: ", ")
                throw InputError(.invalidData, operation: .open, url: url, detail: "the camera's back-channel takes \(names); Reel sends G.711 (PCMU or PCMA at 8 kHz)")
            }
            try client.setUp(backchannel, over: transport.map { $0 == .tcp ? .tcp : .udp }, url: url)
            self.transport = client.lower == .tcp ? .tcp : .udp
            if self.transport == .udp {
                guard let ports = client.serverPorts else {
                    throw InputError(.invalidData, operation: .open, url: url, detail: "the camera's SETUP answer has no server_port for the back-channel")
                }
                datagrams = try TalkDatagramSocket(localPort: client.clientPorts?.rtp ?? 0, host: client.address.host, port: ports.rtp)
            } else {
                datagrams = nil
            }
            try client.play(url: url)
            self.codec = codec
            packetizer = TalkBackPacketizer(codec: codec, payloadType: payload.type, ssrc: .random(in: 1...UInt32.max),
                                            sequence: .random(in: 0...UInt16.max), timestamp: .random(in: 0...UInt32.max))
        } catch let error as InputError where error.reason == .httpStatus(551) {
            // RFC 2326's "Option not supported": what a camera without one answers the Require.
            client.stop()
            throw InputError(.invalidData, operation: .open, url: url, detail: "the camera offers no audio back-channel (it answered the ONVIF Require with 551 Option not supported)")
        } catch {
            client.stop()
            throw error
        }
        self.client = client
        self.source = source
    }

    /// Starts sending, on a thread of its own, until the source ends or ``stop()``.
    public func start() {
        let first = lock.withLock { () -> Bool in
            defer { started = true }
            return !started && !stopping
        }
        guard first else { return }
        let url = client.address.url
        // The connection is read for the keep-alive answers, and to notice the camera leave.
        client.startReading(deliver: { _ in }, ended: { [weak self] error in
            self?.finish(failure: InputError(.other, operation: .read, url: url, detail: "the camera closed the talk-back session\(error.map { ": \($0)" } ?? "")"))
        })
        let thread = Thread { [self] in send() }
        thread.name = "reel.talk"
        thread.start()
    }

    /// Push-to-talk: while false nothing is sent (a microphone's sound is let go, a file
    /// waits where it is); true again starts a new talkspurt.
    public var isTalking: Bool {
        get { lock.withLock { talking } }
        set {
            lock.withLock {
                talking = newValue
                lock.broadcast()
            }
        }
    }

    /// Push-to-talk's button: turns talking on or off; says whether it is on now.
    /// False once the talk has ended.
    @discardableResult
    public func toggleTalking() -> Bool {
        lock.withLock {
            talking.toggle()
            lock.broadcast()
            return talking && !stopping
        }
    }

    /// Packets and seconds sent so far.
    public var statistics: Statistics { lock.withLock { sent } }

    /// Why sending stopped early (the camera went away), once it has.
    public var error: Error? { lock.withLock { failure } }

    /// Returns once the talk has ended: the source said all, ``stop()``, or a failure.
    public func waitUntilFinished() async {
        await withCheckedContinuation { continuation in
            let done = lock.withLock { () -> Bool in
                if !stopping { waiting.append(continuation) }
                return stopping
            }
            if done { continuation.resume() }
        }
    }

    /// Stops sending and ends the session (TEARDOWN).
    public func stop() {
        finish(failure: nil)
    }

    private func finish(failure error: Error?) {
        let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>]? in
            guard !stopping else { return nil }
            stopping = true
            failure = error
            lock.broadcast()
            defer { waiting = [] }
            return waiting
        }
        guard let waiters else { return }
        client.stop()
        datagrams?.close()
        for waiter in waiters { waiter.resume() }
    }

    /// The sending loop: packet `n` of a talkspurt leaves at its start plus `n` × 20 ms (a
    /// live source paces itself: each packet leaves once read).
    private func send() {
        let packetSeconds = Double(TalkBackPacketizer.samplesPerPacket) / Double(TalkBackPacketizer.sampleRate)
        var spurt: (start: Double, packets: Int)?
        var pausedAt: Double?
        var held: [Int16]?
        while true {
            let state = lock.withLock { () -> (stop: Bool, talking: Bool) in (stopping, talking) }
            if state.stop { return }
            if !state.talking {
                if pausedAt == nil { pausedAt = monotonicSeconds() }
                spurt = nil
                if source.isLive {
                    // A microphone is read and let go, so that talking again sends what is said then.
                    do {
                        guard try source.read(count: TalkBackPacketizer.samplesPerPacket) != nil else { return finish(failure: nil) }
                    } catch {
                        return finish(failure: error)
                    }
                } else {
                    // A file waits where it is.
                    lock.withLock { while !stopping, !talking { lock.wait() } }
                }
                continue
            }
            if spurt == nil {
                let now = monotonicSeconds()
                if let pausedAt {
                    lock.withLock { packetizer.pause(samples: Int((now - pausedAt) * Double(TalkBackPacketizer.sampleRate))) }
                }
                pausedAt = nil
                spurt = (now, 0)
            }
            if !source.isLive, let current = spurt {
                let due = current.start + Double(current.packets) * packetSeconds
                let interrupted = lock.withLock { () -> Bool in
                    while !stopping, talking, monotonicSeconds() < due { lock.wait(seconds: due - monotonicSeconds()) }
                    return stopping || !talking
                }
                if interrupted { continue }
            }
            let samples: [Int16]?
            do {
                samples = try held ?? source.read(count: TalkBackPacketizer.samplesPerPacket)
                held = nil
            } catch {
                return finish(failure: error)
            }
            guard let samples, !samples.isEmpty else {
                // Said all: the camera's jitter buffer still holds the last packets; TEARDOWN
                // a little later, so that it plays them out.
                lock.withLock {
                    let end = monotonicSeconds() + Self.playOut
                    while !stopping, monotonicSeconds() < end { lock.wait(seconds: end - monotonicSeconds()) }
                }
                return finish(failure: nil)
            }
            // Counted and made under the lock: once push-to-talk is let go, nothing more is sent.
            let packet = lock.withLock { () -> [UInt8]? in
                guard talking, !stopping else { return nil }
                sent.packets += 1
                sent.samples += samples.count
                return packetizer.packet(samples)
            }
            guard let packet else {
                // A file's samples read as the talk paused go first when it resumes.
                if !source.isLive { held = samples }
                continue
            }
            do {
                if let datagrams { try datagrams.send(packet) } else { try client.sendMedia(packet) }
            } catch {
                return finish(failure: error)
            }
            spurt?.packets += 1
        }
    }
}
