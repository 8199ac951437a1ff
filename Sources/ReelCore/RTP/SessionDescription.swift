import Foundation

/// The SDP (RFC 8866) that tells a receiver how to play a video stream Reel sends: the
/// address and port, the payload type, and the parameter sets (RFC 6184 `sprop-parameter-sets`,
/// RFC 7798 `sprop-vps/sps/pps`), so it can decode from the first keyframe.
public struct SessionDescription: Sendable, Equatable {
    /// H.264 or H.265.
    public var codec: VideoCodec
    /// The address the stream goes to (`c=`), IPv4 or IPv6.
    public var address: String
    /// The RTP port (`m=video PORT`).
    public var port: Int
    /// The dynamic payload type; 96 unless told.
    public var payloadType: UInt8 = 96
    /// VPS (H.265), SPS and PPS units, headers included.
    public var parameterSets: [[UInt8]]
    /// The RTP clock, ticks per second: 90 kHz for video.
    public var clockRate = 90000
    /// RFC 6184 packetization-mode (0 single NAL unit, 1 non-interleaved, 2 interleaved).
    public var packetizationMode = 1
    /// RFC 7798 sprop-max-don-diff: above 0, every payload carries a decoding order number.
    public var maxDonDiff = 0
    /// The SDES-negotiated SRTP keys (RFC 4568 `a=crypto`).
    public var crypto: [SDPCrypto] = []
    /// RTCP's port: `a=rtcp` when given, else the RTP port + 1.
    public var rtcpPort: Int?

    /// A description of a stream that a receiver decodes from the given parameter sets.
    public init(codec: VideoCodec, address: String, port: Int, payloadType: UInt8 = 96, parameterSets: [[UInt8]]) {
        self.codec = codec
        self.address = address
        self.port = port
        self.payloadType = payloadType
        self.parameterSets = parameterSets
    }

    /// The SDP, lines ended by CRLF, as a receiver reads it (`ffplay stream.sdp`).
    public var text: String {
        let family = address.contains(":") ? "IP6" : "IP4"
        var format: [String]
        func base64(ofType type: UInt8) -> [String] {
            parameterSets.filter { !$0.isEmpty && codec.nalType($0[0]) == type }.map { Data($0).base64EncodedString() }
        }
        switch codec {
        case .h264:
            format = ["packetization-mode=1"]
            if let sps = parameterSets.first(where: { !$0.isEmpty && $0[0] & 0x1F == 7 }), sps.count >= 4 {
                format.append("profile-level-id=" + sps[1...3].map { String(format: "%02x", $0) }.joined())
            }
            format.append("sprop-parameter-sets=" + (base64(ofType: 7) + base64(ofType: 8)).joined(separator: ","))
        case .h265:
            format = [("sprop-vps", 32), ("sprop-sps", 33), ("sprop-pps", 34)].map { "\($0.0)=" + base64(ofType: UInt8($0.1)).joined(separator: ",") }
        }
        let profile = crypto.isEmpty ? "RTP/AVP" : "RTP/SAVP"
        let cryptoLines = crypto.map { "a=crypto:\($0.tag) \($0.suite.rawValue) inline:\($0.keyBase64)\n" }.joined()
        return """
        v=0
        o=- 0 0 IN \(family) \(address)
        s=Reel
        c=IN \(family) \(address)
        t=0 0
        m=video \(port) \(profile) \(payloadType)
        a=rtpmap:\(payloadType) \(codec.rtpEncodingName)/\(clockRate)
        a=fmtp:\(payloadType) \(format.joined(separator: "; "))

        """ + cryptoLines
    }
}
