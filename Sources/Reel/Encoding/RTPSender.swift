import Foundation
import ReelCore

/// Sends encoded samples as RTP over UDP (IPv4 or IPv6) to one receiver, with the SDP
/// that describes the stream. Keyframes are preceded by the parameter sets in-band as well,
/// so a receiver that joins late can start at the next keyframe.
public final class RTPSender {
    public let sessionDescription: SessionDescription
    private let payloader: RTPPayloader
    private let socket: Int32
    private let destination: String
    private let ssrc = UInt32.random(in: 0...UInt32.max)
    private var sequenceNumber = UInt16.random(in: 0...UInt16.max)
    private let timestampOffset = UInt32.random(in: 0...UInt32.max)
    private let pacesInRealTime: Bool
    private var clockStart: (wall: Double, media: Double)?
    public private(set) var packetsSent = 0
    public private(set) var bytesSent = 0

    /// - Parameters:
    ///   - url: `rtp://HOST:PORT` (an IPv6 host in brackets).
    ///   - pacesInRealTime: send each sample at its decode time, as a live source does
    ///     (for encodes of files, which produce samples faster than real time).
    public init(url: String, format: VideoFormatDescription, mtu: Int = 1400, payloadType: UInt8 = 96, pacesInRealTime: Bool) throws {
        guard let components = URLComponents(string: url), components.scheme == "rtp", let host = components.host, !host.isEmpty,
              let port = components.port, (1...65_535).contains(port) else {
            throw OutputError(url, "an RTP destination is rtp://HOST:PORT")
        }
        destination = url
        self.pacesInRealTime = pacesInRealTime
        payloader = try RTPPayloader(codec: format.codec, mtu: mtu)
        let bareHost = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(bareHost, String(port), &hints, &found) == 0, let address = found else {
            throw OutputError(url, "unknown host \(bareHost)")
        }
        defer { freeaddrinfo(found) }
        socket = Glibc.socket(address.pointee.ai_family, Int32(SOCK_DGRAM.rawValue), 0)
        guard socket >= 0 else { throw OutputError(url, String(cString: strerror(errno))) }
        var sendBuffer: Int32 = 4 << 20
        setsockopt(socket, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
        guard connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw OutputError(url, reason)
        }
        sessionDescription = SessionDescription(codec: format.codec, address: bareHost, port: port, payloadType: payloadType,
                                                parameterSets: format.parameterSets)
    }

    deinit { close(socket) }

    public func write(_ sample: EncodedSample) throws {
        if pacesInRealTime { waitForDecodeTime(of: sample) }
        var units = try sample.nalUnits()
        if sample.isKeyframe { units = sample.formatDescription.parameterSets.map { $0[...] } + units }
        let payloads = payloader.payloads(for: units)
        let timestamp = UInt32(truncatingIfNeeded: sample.presentationTime.converted(to: 90_000).value) &+ timestampOffset
        for (index, payload) in payloads.enumerated() {
            let header = RTPHeader(marker: index == payloads.count - 1, payloadType: sessionDescription.payloadType,
                                   sequenceNumber: sequenceNumber, timestamp: timestamp, ssrc: ssrc)
            let packet = header.bytes + payload
            let sent = packet.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            // A receiver not listening yet answers with ICMP "port unreachable": not an error for a live sender.
            if sent < 0, errno != ECONNREFUSED { throw OutputError(destination, String(cString: strerror(errno))) }
            sequenceNumber &+= 1
            packetsSent += 1
            bytesSent += packet.count
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

    private func waitForDecodeTime(of sample: EncodedSample) {
        let media = sample.decodeTime.seconds, now = monotonicSeconds()
        guard let start = clockStart else {
            clockStart = (now, media)
            return
        }
        let due = start.wall + (media - start.media) - now
        if due > 0 { usleep(UInt32(min(due, 10) * 1_000_000)) }
    }
}
