import Foundation
import ReelCore

/// Sends encoded samples as RTP over UDP (IPv4 or IPv6) to one receiver, with the SDP
/// that describes the stream. Keyframes are preceded by the parameter sets in-band as well,
/// so a receiver that joins late can start at the next keyframe.
///
/// RTCP sender reports go to the next port (RFC 3550 6.4.1): one before the first packet,
/// so that a receiver can map RTP timestamps to the sender's wall clock from the start, one
/// every ``senderReportInterval`` seconds, and a last one at ``finish()`` (with a BYE only
/// when asked, a little after the last packet: ffmpeg's RTP demuxer ends at a BYE and drops
/// the packets it has not read yet, so ffmpeg's muxer sends none by default either). The media clock is anchored at a
/// live input's capture (``anchorMediaClock(capturedAt:mediaTime:)``), otherwise at the
/// first sample.
///
/// Not `Sendable`: one task or thread sends, as samples come out of an encoder in order
/// (``EncoderSession/samples``).
public final class RTPSender {
    /// The SDP a receiver needs: address, port, payload type and parameter sets.
    public let sessionDescription: SessionDescription
    private let payloader: RTPPayloader
    private let socket: Int32
    /// RTCP, on the port after the RTP port; none when that is past 65535.
    private let controlSocket: Int32?
    private let destination: String
    private let ssrc = UInt32.random(in: 0...UInt32.max)
    private var sequenceNumber = UInt16.random(in: 0...UInt16.max)
    private let timestampOffset = UInt32.random(in: 0...UInt32.max)
    private let pacesInRealTime: Bool
    /// The monotonic time of media time `media`: a live input's capture, or when a paced
    /// file's sample (its decode time) is due.
    private var mediaClock: (wall: Double, media: Double)?
    private var lastReportAt: Double?
    private let cname: String
    /// Seconds between RTCP sender reports (5, as ffmpeg's RTP muxer sends them).
    public let senderReportInterval: Double
    /// ``finish()`` sends an RTCP BYE after the last report.
    public let sendsGoodbye: Bool
    /// RTP packets sent.
    public private(set) var packetsSent = 0
    /// Bytes sent in RTP packets, headers included.
    public private(set) var bytesSent = 0
    /// RTP payload octets sent, without headers: what sender reports count.
    public private(set) var payloadBytesSent = 0
    /// RTCP sender reports sent.
    public private(set) var senderReportsSent = 0

    /// - Parameters:
    ///   - url: `rtp://HOST:PORT` (an IPv6 host in brackets).
    ///   - format: the encoder's format description: its codec and parameter sets.
    ///   - mtu: the largest RTP packet, header included.
    ///   - payloadType: the dynamic payload type the SDP announces.
    ///   - pacesInRealTime: send each sample at its decode time, as a live source does
    ///     (for encodes of files, which produce samples faster than real time).
    ///   - senderReportInterval: seconds between RTCP sender reports.
    ///   - sendsGoodbye: end with an RTCP BYE (RFC 3550 6.6).
    public init(url: String, format: VideoFormatDescription, mtu: Int = 1400, payloadType: UInt8 = 96, pacesInRealTime: Bool,
                senderReportInterval: Double = 5, sendsGoodbye: Bool = false) throws {
        guard let components = URLComponents(string: url), components.scheme == "rtp", let host = components.host, !host.isEmpty,
              let port = components.port, (1...65_535).contains(port) else {
            throw OutputError(url, "an RTP destination is rtp://HOST:PORT")
        }
        destination = url
        self.pacesInRealTime = pacesInRealTime
        self.senderReportInterval = max(senderReportInterval, 0.1)
        self.sendsGoodbye = sendsGoodbye
        payloader = try RTPPayloader(codec: format.codec, mtu: mtu)
        let bareHost = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(bareHost, String(port), &hints, &found) == 0, let address = found else {
            throw OutputError(url, "unknown host \(bareHost)")
        }
        defer { freeaddrinfo(found) }
        socket = try Self.connectedSocket(to: address.pointee, port: port, url: url)
        do {
            controlSocket = port < 65_535 ? try Self.connectedSocket(to: address.pointee, port: port + 1, url: url) : nil
        } catch {
            close(socket)
            throw error
        }
        var name = [CChar](repeating: 0, count: 256)
        cname = "reel@" + (gethostname(&name, name.count - 1) == 0 ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "localhost")
        sessionDescription = SessionDescription(codec: format.codec, address: bareHost, port: port, payloadType: payloadType,
                                                parameterSets: format.parameterSets)
    }

    deinit {
        close(socket)
        if let controlSocket { close(controlSocket) }
    }

    private static func connectedSocket(to address: addrinfo, port: Int, url: String) throws -> Int32 {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: address.ai_addr, count: Int(address.ai_addrlen)))
        }
        // The same host, this port: sin_port and sin6_port sit at the same offset.
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: UInt16(port).bigEndian, toByteOffset: 2, as: UInt16.self) }
        let socket = Glibc.socket(address.ai_family, Int32(SOCK_DGRAM.rawValue), 0)
        guard socket >= 0 else { throw OutputError(url, String(cString: strerror(errno))) }
        var sendBuffer: Int32 = 4 << 20
        setsockopt(socket, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
        let connected = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, address.ai_addrlen) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw OutputError(url, reason)
        }
        return socket
    }

    /// Packetizes and sends a sample (paced by its decode time when asked), and a sender report when one is due.
    public func write(_ sample: EncodedSample) throws {
        if mediaClock == nil { mediaClock = (monotonicSeconds(), sample.decodeTime.seconds) }
        if pacesInRealTime { waitForDecodeTime(of: sample) }
        if lastReportAt.map({ monotonicSeconds() - $0 >= senderReportInterval }) ?? true { sendReport() }
        var units = try sample.nalUnits()
        if sample.isKeyframe { units = sample.formatDescription.parameterSets.map { $0[...] } + units }
        let payloads = payloader.payloads(for: units)
        let timestamp = UInt32(truncatingIfNeeded: sample.presentationTime.converted(to: 90_000).value) &+ timestampOffset
        for (index, payload) in payloads.enumerated() {
            let header = RTPHeader(marker: index == payloads.count - 1, payloadType: sessionDescription.payloadType,
                                   sequenceNumber: sequenceNumber, timestamp: timestamp, ssrc: ssrc)
            let packet = header.bytes + payload
            if Self.send(packet, on: socket) < 0, errno != ECONNREFUSED { throw OutputError(destination, String(cString: strerror(errno))) }
            sequenceNumber &+= 1
            packetsSent += 1
            bytesSent += packet.count
            payloadBytesSent += payload.count
        }
    }

    /// Writes the SDP to `path`.
    public func writeSessionDescription(to path: String) throws {
        do {
            try sessionDescription.text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw OutputError(path, error.localizedDescription)
        }
    }

    /// For a live input: the monotonic time at which the picture of `mediaTime` (seconds) was
    /// captured. Sender reports then map RTP timestamps to capture times; without it they map
    /// them to the time the first sample reached the sender, after its encoding. Called
    /// before the first sample; later calls change nothing.
    public func anchorMediaClock(capturedAt monotonicTime: Double, mediaTime: Double) {
        if mediaClock == nil { mediaClock = (monotonicTime, mediaTime) }
    }

    /// Sends the last sender report, and a BYE when ``sendsGoodbye``.
    public func finish() {
        guard mediaClock != nil else { return }
        // ffmpeg's RTP input reads RTCP before RTP when both are waiting and ends at a BYE,
        // dropping what it has not read: the BYE leaves a little after the last packet, so a
        // receiver that keeps up has read them all.
        if sendsGoodbye, packetsSent > 0 { usleep(UInt32(Self.goodbyeDelay * 1_000_000)) }
        sendReport(goodbye: sendsGoodbye)
    }

    /// Seconds between the last RTP packet and the BYE.
    static let goodbyeDelay = 0.05

    private func waitForDecodeTime(of sample: EncodedSample) {
        guard let start = mediaClock else { return }
        let due = start.wall + (sample.decodeTime.seconds - start.media) - monotonicSeconds()
        if due > 0 { usleep(UInt32(min(due, 10) * 1_000_000)) }
    }

    /// Sends one datagram. A receiver not listening (yet) answers with ICMP "port
    /// unreachable", which a connected socket reports as ECONNREFUSED on its next send, and
    /// that datagram is not sent: it is sent again once. Still refused: not an error for a
    /// live sender, which goes on.
    private static func send(_ datagram: [UInt8], on socket: Int32) -> Int {
        datagram.withUnsafeBytes { bytes in
            let sent = Glibc.send(socket, bytes.baseAddress, bytes.count, 0)
            return sent < 0 && errno == ECONNREFUSED ? Glibc.send(socket, bytes.baseAddress, bytes.count, 0) : sent
        }
    }

    /// A sender report: the wall clock now and the RTP timestamp of now on the media clock.
    private func sendReport(goodbye: Bool = false) {
        guard let controlSocket, let clock = mediaClock else { return }
        let now = monotonicSeconds()
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let media = clock.media + (now - clock.wall)
        let rtpTimestamp = UInt32(truncatingIfNeeded: Int64((media * 90_000).rounded())) &+ timestampOffset
        let report = RTCPPacket.senderReport(
            ssrc: ssrc, ntpTimestamp: NTPTimestamp(unixSeconds: Double(wall.tv_sec) + Double(wall.tv_nsec) / 1e9),
            rtpTimestamp: rtpTimestamp, packetCount: UInt32(truncatingIfNeeded: packetsSent),
            octetCount: UInt32(truncatingIfNeeded: payloadBytesSent), cname: cname, goodbye: goodbye)
        if Self.send(report, on: controlSocket) >= 0 { senderReportsSent += 1 }
        lastReportAt = now
    }
}

@available(*, unavailable, message: "one owner uses it, in order")
extension RTPSender: Sendable {}
