import Foundation
import ReelCore
import ReelFFmpeg

/// Reel's RTSP client (RFC 2326) for the streams its RTP receiver plays: DESCRIBE (with
/// Digest or Basic credentials when the server asks), SETUP of the video over UDP or
/// interleaved in the connection, PLAY, a keep-alive within the session's timeout, and
/// TEARDOWN. After PLAY a thread of its own reads the connection: the interleaved packets
/// over TCP, the keep-alive answers, and the connection's end (the server went away).
final class RTSPClient: @unchecked Sendable {
    enum Lower: String { case udp, tcp }

    let address: RTSPAddress
    /// What the server offers, once described.
    private(set) var presentation: RTSPPresentation?
    let connection: RTSPConnection
    private let timeout: Double
    /// Set while setting up, then read-only.
    private(set) var lower: Lower = .udp
    private(set) var channels: (rtp: UInt8, rtcp: UInt8) = (0, 1)
    private(set) var clientPorts: (rtp: Int, rtcp: Int)?
    /// The server's ports for the stream set up over UDP, when it said them.
    private(set) var serverPorts: (rtp: Int, rtcp: Int)?
    /// Options the server must support (`Require`), sent with DESCRIBE, SETUP and PLAY: the
    /// ONVIF back-channel's `www.onvif.org/ver20/backchannel`.
    private let requirements: [String]
    private var session: RTSPSessionHeader?
    /// The numbering of requests and the server's challenge with the uses of its nonce:
    /// written by the requests and, after PLAY, by the reading thread.
    private let state = LockedValue((sequence: 0, nonceUses: 0, authentication: RTSPAuthentication?.none))
    private let stopped = LockedValue(false)
    private static let userAgent = "Reel/\(ReelRelease.version)"

    /// Connects to `url`'s server. Throws the player's error for a server that refuses or
    /// is silent; ``describe(url:)`` then throws for one that wants credentials or has
    /// nothing there.
    init(url: String, timeout: Double, requiring requirements: [String] = []) throws {
        self.requirements = requirements
        guard let address = RTSPAddress(url) else { throw InputError(.invalidData, operation: .open, url: url, detail: "not an rtsp:// URL") }
        self.address = address
        self.timeout = timeout
        do {
            connection = try RTSPConnection(host: address.host, port: address.port, timeout: timeout)
        } catch {
            throw Self.inputError(error, url: url, timeout: timeout)
        }
    }

    /// Asks for the description of the URL (its SDP), answering a request for credentials.
    func describe(url: String) throws -> RTSPPresentation {
        let answer = try Self.exchange(url: url) { try request("DESCRIBE", address.url, headers: [("Accept", "application/sdp")] + required) }
        guard let sdp = answer.body.isEmpty ? nil : String(bytes: answer.body, encoding: .utf8) else {
            throw InputError(.invalidData, operation: .open, url: url, detail: "the RTSP server's DESCRIBE answer has no SDP")
        }
        do {
            let described = try RTSPPresentation(sdp: sdp, base: answer.header("Content-Base") ?? answer.header("Content-Location") ?? address.url)
            presentation = described
            return described
        } catch {
            throw InputError(.invalidData, operation: .open, url: url, detail: "\(error)")
        }
    }

    deinit { connection.close() }

    /// Sets the video up over `lower` (UDP first when nil, then TCP if the server refuses
    /// UDP with 461).
    func setUp(over lower: Lower?, url: String) throws {
        guard let video = presentation?.media.first(where: { $0.type == "video" }) else { return }
        try setUp(video, over: lower, url: url)
    }

    /// Sets `media` up over `lower` (UDP first when nil, then TCP if the server refuses UDP
    /// with 461): the one stream of this session.
    func setUp(_ media: RTSPPresentation.Media, over lower: Lower?, url: String) throws {
        let answer = try Self.exchange(url: url, allowing: lower == nil ? [461] : []) { try setUp(media.control, over: lower ?? .udp) }
        if answer.status == 461 {
            _ = try Self.exchange(url: url) { try setUp(media.control, over: .tcp) }
        }
    }

    /// Starts the session playing, from now on.
    func play(url: String) throws {
        _ = try Self.exchange(url: url) { try request("PLAY", presentation?.aggregateControl ?? address.url, headers: [("Range", "npt=0.000-")] + required) }
    }

    private var required: [(name: String, value: String)] { requirements.map { ("Require", $0) } }

    private func setUp(_ control: String, over lower: Lower) throws -> RTSPResponse {
        self.lower = lower
        let transport: String
        switch lower {
        case .tcp:
            transport = "RTP/AVP/TCP;unicast;interleaved=0-1"
        case .udp:
            let ports = try clientPorts ?? Self.freePortPair()
            clientPorts = ports
            transport = "RTP/AVP;unicast;client_port=\(ports.rtp)-\(ports.rtcp)"
        }
        let response = try request("SETUP", control, headers: [("Transport", transport)] + required)
        if response.status == 200 {
            let chosen = RTSPTransportHeader(response.header("Transport") ?? "")
            if chosen.isInterleaved, lower == .udp { self.lower = .tcp }
            if let chosenChannels = chosen.channels { channels = chosenChannels }
            serverPorts = chosen.serverPorts
            session = response.header("Session").flatMap(RTSPSessionHeader.init)
        }
        return response
    }

    /// Sends a request and waits for its answer; a 401 is answered once with the URL's
    /// credentials: the first one, and a later one that only says the nonce went stale
    /// (a camera that renews its nonces mid-session). Any other 401 is the answer.
    @discardableResult
    private func request(_ method: String, _ target: String, headers: [(name: String, value: String)] = []) throws -> RTSPResponse {
        var response = try send(method, target, headers: headers)
        if let challenge = renewal(after: response) {
            state.withLock { $0.authentication = challenge; $0.nonceUses = 0 }
            response = try send(method, target, headers: headers)
        }
        return response
    }

    /// The challenge to answer when `response` asks for credentials the client has: the
    /// first one, or one whose nonce alone went stale and that brings a new nonce (a server
    /// that calls the nonce it gave stale would be asked for ever).
    private func renewal(after response: RTSPResponse) -> RTSPAuthentication? {
        guard response.status == 401, address.user != nil,
              let challenge = RTSPAuthentication(challenges: response.headers["www-authenticate"] ?? []) else { return nil }
        guard let current = state.withLock({ $0.authentication }) else { return challenge }
        return challenge.isStale && challenge.parameters["nonce"] != current.parameters["nonce"] ? challenge : nil
    }

    private func send(_ method: String, _ target: String, headers: [(name: String, value: String)]) throws -> RTSPResponse {
        let sequence = try write(method, target, headers: headers)
        do {
            return try connection.response(to: sequence, until: monotonicSeconds() + timeout)
        } catch {
            throw Self.inputError(error, url: address.url, timeout: timeout)
        }
    }

    /// Writes a request (with the session and credentials it needs); returns its CSeq.
    private func write(_ method: String, _ target: String, headers: [(name: String, value: String)]) throws -> Int {
        let (sequence, uses, authentication) = state.withLock { state in
            state.sequence += 1
            state.nonceUses += 1
            return (state.sequence, state.nonceUses, state.authentication)
        }
        var all = headers + [("User-Agent", Self.userAgent)]
        if let session { all.append(("Session", session.id)) }
        if let authentication, let user = address.user {
            var md5 = FrameMD5()
            let clientNonce = String(format: "%08x", UInt32.random(in: 0...UInt32.max))
            all.append(("Authorization", authentication.authorization(method: method, uri: target, user: user, password: address.password ?? "",
                                                                     counter: uses, clientNonce: clientNonce) { md5.hash($0) }))
        }
        do {
            try connection.send(RTSPRequest(method, target, headers: all).serialized(sequence: sequence))
        } catch {
            throw Self.inputError(error, url: address.url, timeout: timeout)
        }
        return sequence
    }

    /// Runs `step`, and turns an answer other than 200 (or one of `allowing`) into the
    /// player's error.
    private static func exchange(url: String, allowing: Set<Int> = [],
                                 _ step: () throws -> RTSPResponse) throws -> RTSPResponse {
        let response = try step()
        guard response.status == 200 || allowing.contains(response.status) else {
            throw InputError(.httpStatus(response.status), operation: .open, url: url, detail: "RTSP \(response.status) \(response.reason)")
        }
        return response
    }

    /// After PLAY: reads the connection on a thread of its own until it ends or ``stop()``,
    /// handing on interleaved RTP and RTCP, and keeps the session alive. `ended` is called
    /// once when the server closes the connection or it fails (not after `stop()`).
    func startReading(deliver: @escaping @Sendable (ReceivedDatagram) -> Void, ended: @escaping @Sendable (Error?) -> Void) {
        let interval = min(max((session?.timeout ?? 60) / 2, 2), 30)
        let thread = Thread { [self] in
            var nextKeepAlive = monotonicSeconds() + interval
            while !stopped.withLock({ $0 }) {
                // Over TCP packets never stop coming: the keep-alive is due by the clock.
                if monotonicSeconds() >= nextKeepAlive {
                    nextKeepAlive = monotonicSeconds() + interval
                    _ = try? write("OPTIONS", address.url, headers: [])
                }
                do {
                    switch try connection.next(until: nextKeepAlive) {
                    case .interleaved(let channel, let packet) where channel == channels.rtp || channel == channels.rtcp:
                        deliver(ReceivedDatagram(bytes: packet, onControlPort: channel == channels.rtcp))
                    case .response(let response):
                        // A keep-alive refused for a stale nonce: at once again, with the new one.
                        if let challenge = renewal(after: response) {
                            state.withLock { $0.authentication = challenge; $0.nonceUses = 0 }
                            _ = try? write("OPTIONS", address.url, headers: [])
                        }
                    default:
                        break
                    }
                } catch RTSPConnectionError.timedOut {
                    continue
                } catch RTSPConnectionError.closed {
                    if !stopped.withLock({ $0 }) { ended(nil) }
                    return
                } catch {
                    if !stopped.withLock({ $0 }) { ended(error) }
                    return
                }
            }
        }
        thread.name = "reel.rtsp.read"
        thread.start()
    }

    /// Sends RTCP to the server over the connection (interleaved only).
    func sendControl(_ bytes: [UInt8]) {
        guard lower == .tcp else { return }
        try? sendInterleaved(bytes, channel: channels.rtcp, timeout: 0.5)
    }

    /// Sends an RTP packet of the stream set up over the connection (interleaved only).
    func sendMedia(_ bytes: [UInt8]) throws(RTSPConnectionError) {
        try sendInterleaved(bytes, channel: channels.rtp, timeout: 2)
    }

    private func sendInterleaved(_ bytes: [UInt8], channel: UInt8, timeout: Double) throws(RTSPConnectionError) {
        guard bytes.count <= 65_535 else { return }
        try connection.send([0x24, channel, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes, timeout: timeout)
    }

    /// TEARDOWN (not waited for), then the connection closes.
    func stop() {
        let first = stopped.withLock { state in
            defer { state = true }
            return !state
        }
        guard first else { return }
        if session != nil { _ = try? write("TEARDOWN", presentation?.aggregateControl ?? address.url, headers: []) }
        connection.close()
    }

    /// An even UDP port and the next, both free now (the receiver binds them right after).
    static func freePortPair() throws -> (rtp: Int, rtcp: Int) {
        for _ in 0..<50 {
            let port = Int.random(in: 20_000..<60_000) & ~1
            if let first = try? DatagramSocket(address: "0.0.0.0", port: port) {
                let second = try? DatagramSocket(address: "0.0.0.0", port: port + 1)
                first.close()
                second?.close()
                if second != nil { return (port, port + 1) }
            }
        }
        throw RTPError("no free pair of UDP ports for RTP and RTCP")
    }

    /// A connection failure in the player's words.
    static func inputError(_ error: Error, url: String, timeout: Double) -> InputError {
        guard let error = error as? RTSPConnectionError else { return error as? InputError ?? InputError(.other, operation: .open, url: url, detail: "\(error)") }
        return switch error {
        case .refused: InputError(.connectionRefused, operation: .open, url: url)
        case .timedOut: InputError(.timedOut(seconds: timeout), operation: .open, url: url)
        case .closed: InputError(.other, operation: .open, url: url, detail: "the RTSP server closed the connection")
        case .failed(let message): InputError(.invalidData, operation: .open, url: url, detail: message)
        }
    }
}
