/// What Reel reads of an SDP offer or answer (RFC 8866) in a WebRTC exchange: each media
/// section's kind, port, direction, `mid` and codecs, and the ICE credentials and
/// candidates. The rest (fingerprints, extensions, feedback) is GStreamer's `webrtcbin`'s
/// to read; this is for deciding which streams come, for the trickle fragments and for
/// `reel probe`.
package struct WebRTCDescription: Sendable, Equatable {
    /// Which way a media section's media goes, from the side that wrote the description.
    package enum Direction: String, Sendable {
        case sendrecv, sendonly, recvonly, inactive

        /// Whether the writer sends media in this section.
        package var sends: Bool { self == .sendrecv || self == .sendonly }
        /// Whether the writer receives media in this section.
        package var receives: Bool { self == .sendrecv || self == .recvonly }
    }

    /// A payload type's codec, from `a=rtpmap`.
    package struct Codec: Sendable, Equatable {
        package var payloadType: Int
        /// As SDP names it (`H264`, `VP8`, `opus`).
        package var name: String
        package var clockRate: Int
        /// Audio channels, when given.
        package var channels: Int?

        package init(payloadType: Int, name: String, clockRate: Int, channels: Int? = nil) {
            (self.payloadType, self.name, self.clockRate, self.channels) = (payloadType, name, clockRate, channels)
        }

        /// FFmpeg's name for the codec (`h264`, `vp8`, `opus`), or SDP's in lower case.
        package var ffmpegName: String {
            let names = ["H264": "h264", "H265": "hevc", "VP8": "vp8", "VP9": "vp9", "AV1": "av1", "OPUS": "opus",
                         "PCMU": "pcm_mulaw", "PCMA": "pcm_alaw", "G722": "adpcm_g722"]
            return names[name.uppercased()] ?? name.lowercased()
        }
    }

    /// One `m=` section.
    package struct Media: Sendable, Equatable {
        /// `video`, `audio`, `application`…
        package var kind: String
        /// 0 rejects the section (an answer's way to refuse it).
        package var port: Int
        package var transport: String
        /// The payload types (or formats) of the `m=` line, in order of preference.
        package var formats: [String]
        package var direction: Direction
        package var mid: String?
        package var codecs: [Codec]
        package var iceUfrag: String?
        package var icePassword: String?
        /// Each `a=candidate:` line's value (without `a=`).
        package var candidates: [String]

        /// The section's codecs in the `m=` line's order (those it has an `rtpmap` for).
        package var preferredCodecs: [Codec] {
            formats.compactMap { format in codecs.first { String($0.payloadType) == format } }
        }

        /// Whether the writer sends media here: not rejected, and a sending direction.
        package var isSending: Bool { port != 0 && direction.sends }
        /// Whether the writer receives media here: not rejected, and a receiving direction.
        package var isReceiving: Bool { port != 0 && direction.receives }
    }

    package var media: [Media]
    /// Session-level ICE credentials, which a section's own replace.
    package var iceUfrag: String?
    package var icePassword: String?

    /// The largest description read (a WebRTC one is a few kilobytes).
    package static let maximumBytes = 64 * 1024
    /// The most media sections read.
    package static let maximumMedia = 64

    /// Reads `text`; throws when it is too large or not SDP (no `v=0` first, an `m=` line
    /// that is not one).
    package init(parsing text: String) throws(WebRTCDescriptionError) {
        guard text.utf8.count <= Self.maximumBytes else { throw WebRTCDescriptionError("the session description is over \(Self.maximumBytes / 1024) KiB") }
        let lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard lines.first == "v=0" else { throw WebRTCDescriptionError("not a session description (no v=0 first)") }
        media = []
        var sessionDirection = Direction.sendrecv
        for line in lines.dropFirst() {
            guard line.count >= 2, line[line.index(after: line.startIndex)] == "=" else { throw WebRTCDescriptionError("not a line of a session description: \(line.prefix(60))") }
            let value = line.dropFirst(2)
            switch line.first {
            case "m":
                guard media.count < Self.maximumMedia else { throw WebRTCDescriptionError("over \(Self.maximumMedia) media sections") }
                let fields = value.split(separator: " ")
                // The port may carry a count (`9/2`); the count is not used here.
                guard fields.count >= 3, let port = Int(fields[1].prefix { $0 != "/" }), (0...65535).contains(port) else {
                    throw WebRTCDescriptionError("not a media line: m=\(value.prefix(60))")
                }
                media.append(Media(kind: String(fields[0]), port: port, transport: String(fields[2]), formats: fields.dropFirst(3).map(String.init),
                                   direction: sessionDirection, mid: nil, codecs: [], iceUfrag: nil, icePassword: nil, candidates: []))
            case "a":
                note(attribute: value, sessionDirection: &sessionDirection)
            default:
                continue
            }
        }
    }

    /// One `a=` line, in the newest media section or at session level before any.
    private mutating func note(attribute: Substring, sessionDirection: inout Direction) {
        // Split at the colon as bytes are, not as characters: a combining mark after the
        // colon would join it into one character.
        let scalars = attribute.unicodeScalars
        let colon = scalars.firstIndex(of: ":")
        let name = String(Substring(scalars[..<(colon ?? scalars.endIndex)]))
        let argument = colon.map { String(Substring(scalars[scalars.index(after: $0)...])) }
        if let direction = Direction(rawValue: name), argument == nil {
            if media.isEmpty { sessionDirection = direction } else { media[media.count - 1].direction = direction }
            return
        }
        guard let argument else { return }
        switch name {
        case "ice-ufrag": if media.isEmpty { iceUfrag = argument } else { media[media.count - 1].iceUfrag = argument }
        case "ice-pwd": if media.isEmpty { icePassword = argument } else { media[media.count - 1].icePassword = argument }
        case "mid": if !media.isEmpty { media[media.count - 1].mid = argument }
        case "candidate": if !media.isEmpty { media[media.count - 1].candidates.append("candidate:" + argument) }
        case "rtpmap":
            guard !media.isEmpty, let codec = Self.codec(rtpmap: argument) else { return }
            media[media.count - 1].codecs.append(codec)
        default: return
        }
    }

    /// `96 H264/90000` or `111 opus/48000/2` as a codec.
    private static func codec(rtpmap: String) -> Codec? {
        let parts = rtpmap.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let payloadType = Int(parts[0]), (0...127).contains(payloadType) else { return nil }
        let encoding = parts[1].split(separator: "/")
        guard encoding.count >= 2, let clockRate = Int(encoding[1]), clockRate > 0 else { return nil }
        let channels = encoding.count > 2 ? Int(encoding[2]) : nil
        return Codec(payloadType: payloadType, name: String(encoding[0]), clockRate: clockRate, channels: channels)
    }

    /// The section's ICE credentials: its own, or the session's.
    package func iceCredentials(of section: Media) -> (ufrag: String, password: String)? {
        guard let ufrag = section.iceUfrag ?? iceUfrag, let password = section.icePassword ?? icePassword else { return nil }
        return (ufrag, password)
    }

    /// `text` (an offer as `webrtcbin` made it, before gathering) with `candidates` (each
    /// with its media section's index) added at the end of their sections, and
    /// `a=end-of-candidates` in the first when gathering is over: the offer for a server that
    /// takes no trickled candidates. A candidate naming no section is left out.
    package static func adding(candidates: [(mediaIndex: Int, candidate: String)], to text: String, gatheringDone: Bool) -> String {
        var lines: [Substring] = []
        var section = -1
        func close() {
            let own = candidates.filter { $0.mediaIndex == section && !$0.candidate.contains(where: \.isNewline) }
            lines += own.map { Substring($0.candidate.hasPrefix("candidate:") ? "a=\($0.candidate)" : "a=candidate:\($0.candidate)") }
            if gatheringDone && section == 0 { lines.append("a=end-of-candidates") }
        }
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            if line.hasPrefix("m=") {
                close()
                section += 1
            }
            lines.append(line)
        }
        close()
        return lines.map { $0 + "\r\n" }.joined()
    }

    /// The media the writer sends: audio and video sections not rejected, in a sending direction.
    package var sentMedia: [Media] { media.filter { $0.isSending && ($0.kind == "audio" || $0.kind == "video") } }
    /// The media the writer takes: audio and video sections not rejected, in a receiving direction.
    package var receivedMedia: [Media] { media.filter { $0.isReceiving && ($0.kind == "audio" || $0.kind == "video") } }
}

/// A session description Reel could not read.
package struct WebRTCDescriptionError: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
