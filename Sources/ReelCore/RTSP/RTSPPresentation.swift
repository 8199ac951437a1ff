import Foundation

/// What a DESCRIBE answer offers (its SDP): the media, each with its type, encoding and
/// control URL, and the video stream as Reel's RTP receiver takes it.
package struct RTSPPresentation: Sendable {
    package struct Media: Sendable, Equatable {
        /// `video`, `audio`, `application`…
        package var type: String
        /// The first payload type's encoding (`H264`, `MPEG4-GENERIC`), when mapped.
        package var encoding: String?
        /// The URL a SETUP of this stream goes to.
        package var control: String
        /// `sendonly`, `recvonly`, `sendrecv` or `inactive`, as the server wrote it; nil when
        /// unsaid. An ONVIF camera marks its back-channel (the audio it takes) `sendonly`.
        package var direction: String? = nil
        /// Each payload type offered, in the server's order of preference.
        package var payloads: [Payload] = []
    }

    /// One payload type of a medium: from its `rtpmap`, or RFC 3551's table for the static
    /// audio types without one.
    package struct Payload: Sendable, Equatable {
        package var type: UInt8
        /// Upper-cased (`PCMU`, `PCMA`, `MPEG4-GENERIC`); nil when neither says.
        package var encoding: String?
        package var clockRate: Int?
        package var channels: Int

        package init(type: UInt8, encoding: String?, clockRate: Int?, channels: Int) {
            self.type = type
            self.encoding = encoding
            self.clockRate = clockRate
            self.channels = channels
        }
    }

    package var media: [Media]
    /// The first video stream, when it is H.264 or H.265.
    package var video: SessionDescription?
    /// The URL the aggregate PLAY goes to.
    package var aggregateControl: String

    /// Reads `sdp`, resolving control URLs against `base` (the answer's Content-Base, or
    /// the URL described).
    package init(sdp: String, base: String) throws(RTPError) {
        var media: [Media] = []
        var sessionControl: String?
        var current: (type: String, types: [UInt8], maps: [UInt8: Payload], control: String?, direction: String?)?
        func close() {
            guard let current else { return }
            let payloads = current.types.map { current.maps[$0] ?? Self.staticPayload($0) }
            media.append(Media(type: current.type, encoding: payloads.lazy.compactMap(\.encoding).first,
                               control: Self.resolve(current.control ?? "", base: base), direction: current.direction, payloads: payloads))
        }
        for rawLine in sdp.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard line.count >= 2, line.dropFirst().first == "=" else { continue }
            let value = line.dropFirst(2)
            if line.first == "m" {
                close()
                let fields = value.split(separator: " ")
                current = (String(fields.first ?? ""), fields.dropFirst(3).compactMap { UInt8($0) }, [:], nil, nil)
            } else if line.first == "a" {
                if value.hasPrefix("control:") {
                    let control = value.dropFirst("control:".count).trimmingCharacters(in: .whitespaces)
                    if current != nil { current?.control = control } else { sessionControl = control }
                } else if value.hasPrefix("rtpmap:"), current != nil {
                    let parts = value.dropFirst("rtpmap:".count).split(separator: " ", maxSplits: 1)
                    if parts.count == 2, let type = UInt8(parts[0]) {
                        let fields = parts[1].split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }
                        current?.maps[type] = Payload(type: type, encoding: fields.first?.uppercased(), clockRate: fields.count > 1 ? Int(fields[1]) : nil,
                                                      channels: fields.count > 2 ? Int(fields[2]).map { min(max($0, 1), 8) } ?? 1 : 1)
                    }
                } else if ["sendonly", "recvonly", "sendrecv", "inactive"].contains(String(value)), current != nil {
                    current?.direction = String(value)
                }
            }
        }
        close()
        guard !media.isEmpty else { throw RTPError("the RTSP server described no media (no m= line)") }
        self.media = media
        aggregateControl = Self.resolve(sessionControl ?? "", base: base)
        video = try? SessionDescription(parsing: sdp)
    }

    /// A control attribute as an absolute URL: `*` or nothing is the base itself, an
    /// absolute URL stays, anything else is relative to the base.
    static func resolve(_ control: String, base: String) -> String {
        if control.isEmpty || control == "*" { return base }
        if control.lowercased().hasPrefix("rtsp://") || control.lowercased().hasPrefix("rtsps://") { return control }
        return base.hasSuffix("/") ? base + control : base + "/" + control
    }

    /// The ONVIF back-channel: the audio medium the server only receives (`sendonly` in its
    /// description, written as the client's direction), when it offered one.
    package var backchannel: Media? { media.first { $0.type == "audio" && $0.direction == "sendonly" } }

    /// RFC 3551's static audio payload types a description may use without an `rtpmap`.
    static func staticPayload(_ type: UInt8) -> Payload {
        switch type {
        case 0: Payload(type: 0, encoding: "PCMU", clockRate: 8000, channels: 1)
        case 8: Payload(type: 8, encoding: "PCMA", clockRate: 8000, channels: 1)
        default: Payload(type: type, encoding: nil, clockRate: nil, channels: 1)
        }
    }

    /// Whether Reel's receiver plays all of it: one H.264 or H.265 video stream, nothing else.
    package var isVideoOnly: Bool { video != nil && media.count == 1 && media[0].type == "video" }
}

/// The `Transport` a server chose in its SETUP answer (RFC 2326 12.39).
package struct RTSPTransportHeader: Sendable {
    package var isInterleaved: Bool
    /// The interleaved channels of RTP and RTCP.
    package var channels: (rtp: UInt8, rtcp: UInt8)?
    /// The server's UDP ports of RTP and RTCP.
    package var serverPorts: (rtp: Int, rtcp: Int)?
    package var ssrc: UInt32?

    package init(_ text: String) {
        isInterleaved = false
        for field in text.split(separator: ";") {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let name = parts[0].lowercased()
            if name.hasPrefix("rtp/avp/tcp") { isInterleaved = true }
            guard parts.count == 2 else { continue }
            let range = parts[1].split(separator: "-").compactMap { Int($0) }
            switch name {
            case "interleaved":
                if let first = range.first, (0...254).contains(first) {
                    channels = (UInt8(first), UInt8(range.count > 1 && (0...255).contains(range[1]) ? range[1] : first + 1))
                }
            case "server_port":
                let ports = 1...65535
                if let first = range.first, ports.contains(first) {
                    serverPorts = (first, range.count > 1 && ports.contains(range[1]) ? range[1] : min(first + 1, 65535))
                }
            case "ssrc":
                ssrc = UInt32(parts[1], radix: 16)
            default:
                break
            }
        }
    }
}

/// A `Session` header: the id, and the seconds the server keeps an idle session (60 unless said).
package struct RTSPSessionHeader: Sendable, Equatable {
    package var id: String
    package var timeout: Double

    package init?(_ text: String) {
        let fields = text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let id = fields.first, !id.isEmpty else { return nil }
        self.id = id
        timeout = fields.dropFirst().lazy.compactMap { field -> Double? in
            let parts = field.split(separator: "=", maxSplits: 1)
            return parts.count == 2 && parts[0].lowercased() == "timeout" ? Double(parts[1]).flatMap { $0.isFinite ? $0 : nil } : nil
        }.first.map { max($0, 5) } ?? 60
    }
}

/// An `rtsp://` URL taken apart: where to connect, the credentials it carries
/// (percent-decoded) and the URL without them, as requests name it.
package struct RTSPAddress: Sendable, Equatable {
    package var host: String
    package var port: Int
    package var user: String?
    package var password: String?
    /// The URL without credentials.
    package var url: String

    package init?(_ url: String) {
        guard let schemeEnd = url.range(of: "://"), url[..<schemeEnd.lowerBound].lowercased() == "rtsp" else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            let colon = credentials.firstIndex(of: ":")
            user = String(credentials[..<(colon ?? credentials.endIndex)]).removingPercentEncoding
            password = colon.flatMap { String(credentials[credentials.index(after: $0)...]).removingPercentEncoding }
            authority = authority[authority.index(after: at)...]
        }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            port = after.hasPrefix(":") ? Int(after.dropFirst()) ?? -1 : 554
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            port = Int(authority[authority.index(after: colon)...]) ?? -1
        } else {
            host = String(authority)
            port = 554
        }
        guard !host.isEmpty, (1...65535).contains(port) else { return nil }
        self.url = "rtsp://" + authority + rest[authorityEnd...]
    }
}
