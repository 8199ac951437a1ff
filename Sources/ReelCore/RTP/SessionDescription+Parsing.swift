import Foundation

extension SessionDescription {
    /// The first H.264 or H.265 video stream of an SDP (RFC 8866): where it arrives, its
    /// payload type and clock rate, its `fmtp` parameters and its SRTP keys. Lines it does
    /// not need are skipped; a missing or inconsistent one is an error that names it.
    public init(parsing text: String) throws(RTPError) {
        guard text.utf8.count <= 1 << 20 else { throw RTPError("an SDP of \(text.utf8.count) bytes is larger than 1 MiB") }
        var sessionAddress: String?
        var media: (port: Int, payloadTypes: [UInt8], secure: Bool)?
        var mediaAddress: String?
        var rtpmaps: [UInt8: (name: String, clockRate: Int)] = [:]
        var fmtps: [UInt8: String] = [:]
        var crypto: [SDPCrypto] = []
        var rtcpPort: Int?
        var inVideo = false, sawVideo = false
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard line.count >= 2, line.dropFirst().first == "=" else { continue }
            let value = String(line.dropFirst(2))
            switch line.first {
            case "m":
                inVideo = false
                guard !sawVideo else { continue }
                let fields = value.split(separator: " ")
                guard fields.first == "video" else { continue }
                guard fields.count >= 4, let port = fields[1].split(separator: "/").first.flatMap({ Int($0) }), (0...65535).contains(port) else {
                    throw RTPError("a malformed m= line: \(value)")
                }
                let types = fields[3...].compactMap { UInt8($0) }.filter { $0 < 128 }
                media = (port, types, fields[2].contains("SAVP"))
                inVideo = true
                sawVideo = true
            case "c":
                let fields = value.split(separator: " ")
                guard fields.count >= 3, let address = fields[2].split(separator: "/").first.map(String.init) else {
                    throw RTPError("a malformed c= line: \(value)")
                }
                if inVideo { mediaAddress = address } else if !sawVideo { sessionAddress = address }
            case "a" where inVideo:
                let (name, argument) = Self.attribute(value)
                switch name {
                case "rtpmap":
                    let parts = argument.split(separator: " ", maxSplits: 1)
                    guard parts.count == 2, let type = UInt8(parts[0]) else { throw RTPError("a malformed rtpmap: \(argument)") }
                    let encoding = parts[1].split(separator: "/")
                    guard let clockRate = encoding.count >= 2 ? Int(encoding[1]) : nil, clockRate > 0, clockRate <= 10_000_000 else {
                        throw RTPError("an rtpmap without a clock rate: \(argument)")
                    }
                    rtpmaps[type] = (encoding[0].uppercased(), clockRate)
                case "fmtp":
                    let parts = argument.split(separator: " ", maxSplits: 1)
                    if parts.count == 2, let type = UInt8(parts[0]) { fmtps[type] = String(parts[1]) }
                case "crypto":
                    crypto.append(try SDPCrypto(attribute: argument))
                case "rtcp":
                    rtcpPort = argument.split(separator: " ").first.flatMap { Int($0) }.flatMap { (1...65535).contains($0) ? $0 : nil }
                default:
                    break
                }
            default:
                continue
            }
        }
        guard let media else { throw RTPError("the SDP has no video stream (m=video)") }
        guard let (type, map) = media.payloadTypes.lazy.compactMap({ type in rtpmaps[type].map { (type, $0) } })
            .first(where: { $0.1.name == "H264" || $0.1.name == "H265" }) else {
            throw RTPError("the SDP's video stream is neither H264 nor H265 (no matching a=rtpmap)")
        }
        let codec: VideoCodec = map.name == "H264" ? .h264 : .h265
        guard let address = mediaAddress ?? sessionAddress else { throw RTPError("the SDP has no connection address (c=)") }
        if media.secure && crypto.isEmpty { throw RTPError("the SDP asks for SRTP (RTP/SAVP) but has no a=crypto line") }
        let parameters = Self.formatParameters(fmtps[type] ?? "")
        var parameterSets: [[UInt8]] = []
        let names = codec == .h264 ? ["sprop-parameter-sets"] : ["sprop-vps", "sprop-sps", "sprop-pps"]
        for name in names {
            for encoded in (parameters[name] ?? "").split(separator: ",") where !encoded.isEmpty {
                guard let unit = Data(base64Encoded: String(encoded)), !unit.isEmpty else {
                    throw RTPError("\(name) holds a value that is not base64: \(encoded)")
                }
                parameterSets.append([UInt8](unit))
            }
        }
        self.init(codec: codec, address: address, port: media.port, payloadType: type, parameterSets: parameterSets)
        clockRate = map.clockRate
        self.crypto = crypto
        self.rtcpPort = rtcpPort
        if let mode = parameters["packetization-mode"] {
            guard let value = Int(mode), (0...2).contains(value) else { throw RTPError("packetization-mode \(mode) is not 0, 1 or 2") }
            packetizationMode = value
        }
        if let don = parameters["sprop-max-don-diff"] {
            guard let value = Int(don), (0...32767).contains(value) else { throw RTPError("sprop-max-don-diff \(don) is not 0 to 32767") }
            maxDonDiff = value
        }
    }

    private static func attribute(_ value: String) -> (String, String) {
        guard let colon = value.firstIndex(of: ":") else { return (value, "") }
        return (String(value[..<colon]), String(value[value.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
    }

    /// `key=value; key=value` with names lowercased.
    static func formatParameters(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            result[parts[0].trimmingCharacters(in: .whitespaces).lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        return result
    }
}
