import Foundation
import ReelCore
import Testing

/// The pure parts of WHEP/WHIP signalling: endpoint names, reading an offer or answer, and
/// the trickle-ICE fragment. The exchange itself is tested against real peers
/// (ReelIntegrationTests' WebRTC suites).
@Suite struct WebRTCSignallingTests {
    /// An offer as GStreamer's `webrtcbin` writes one for receiving video and sound.
    static let offer = """
    v=0\r
    o=- 4323049733513633421 0 IN IP4 0.0.0.0\r
    s=-\r
    t=0 0\r
    a=ice-options:trickle\r
    a=group:BUNDLE video0 audio1\r
    m=video 9 UDP/TLS/RTP/SAVPF 96 97\r
    c=IN IP4 0.0.0.0\r
    a=setup:actpass\r
    a=ice-ufrag:qXoCzh3j0Vh3kU8n\r
    a=ice-pwd:T3hVbe2wCXq6s0yHbbZxZ4JkMYtq4rI5\r
    a=rtcp-mux\r
    a=rtcp-rsize\r
    a=recvonly\r
    a=rtpmap:96 H264/90000\r
    a=rtcp-fb:96 nack pli\r
    a=fmtp:96 packetization-mode=1;profile-level-id=42e01f\r
    a=rtpmap:97 VP8/90000\r
    a=mid:video0\r
    a=fingerprint:sha-256 6B:8B:5D:EA:59:04:20:23:29:C8:87:1C:CC:87:32:BE:DD:8C:66:A5:8E:50:55:EA:8C:D3:B6:5C:09:5E:D6:BC\r
    m=audio 9 UDP/TLS/RTP/SAVPF 111\r
    c=IN IP4 0.0.0.0\r
    a=setup:actpass\r
    a=ice-ufrag:qXoCzh3j0Vh3kU8n\r
    a=ice-pwd:T3hVbe2wCXq6s0yHbbZxZ4JkMYtq4rI5\r
    a=rtcp-mux\r
    a=recvonly\r
    a=rtpmap:111 OPUS/48000/2\r
    a=mid:audio1\r

    """

    /// A server's answer that sends video only and refuses the sound (port 0), with
    /// session-level credentials and its candidate in the answer.
    static let answer = """
    v=0
    o=- 3921948173 3921948173 IN IP4 0.0.0.0
    s=-
    t=0 0
    a=group:BUNDLE video0
    a=ice-ufrag:Zr4q
    a=ice-pwd:m1cKfY8rB2Vb2EeQ9qvPcP
    m=video 50372 UDP/TLS/RTP/SAVPF 96
    c=IN IP4 127.0.0.1
    a=sendonly
    a=mid:video0
    a=rtpmap:96 H264/90000
    a=candidate:4f6d2d3 1 udp 2130706431 127.0.0.1 50372 typ host
    a=end-of-candidates
    m=audio 0 UDP/TLS/RTP/SAVPF 111
    a=inactive
    a=mid:audio1
    a=rtpmap:111 opus/48000/2

    """

    @Test func endpointsAreNamedByASchemeOrAPathOrAFlag() {
        #expect(WebRTCEndpoint("whep+http://127.0.0.1:8889/cam/whep") == WebRTCEndpoint.forTest(.watch, "http://127.0.0.1:8889/cam/whep"))
        #expect(WebRTCEndpoint("WHEP+HTTPS://example.com/live") == WebRTCEndpoint.forTest(.watch, "HTTPS://example.com/live"))
        #expect(WebRTCEndpoint("whip+http://127.0.0.1/ingest") == WebRTCEndpoint.forTest(.publish, "http://127.0.0.1/ingest"))
        #expect(WebRTCEndpoint("https://cams.example.com/garage/whep") == WebRTCEndpoint.forTest(.watch, "https://cams.example.com/garage/whep"))
        #expect(WebRTCEndpoint("http://127.0.0.1:8889/garage/whip") == WebRTCEndpoint.forTest(.publish, "http://127.0.0.1:8889/garage/whip"))
        #expect(WebRTCEndpoint("http://127.0.0.1/stream.m3u8") == nil)
        #expect(WebRTCEndpoint("http://127.0.0.1/stream", forced: .watch) == WebRTCEndpoint.forTest(.watch, "http://127.0.0.1/stream"))
        #expect(WebRTCEndpoint("rtsp://127.0.0.1/whep") == nil)
        #expect(WebRTCEndpoint("/home/me/whep") == nil)
        #expect(WebRTCEndpoint("rtsp://127.0.0.1/x", forced: .watch) == nil)
    }

    @Test func aSessionsLocationIsResolvedAgainstTheEndpoint() throws {
        let endpoint = try #require(WebRTCEndpoint("whep+http://127.0.0.1:8889/cam/whep"))
        #expect(endpoint.sessionURL(location: "/cam/whep/session/7f3a") == "http://127.0.0.1:8889/cam/whep/session/7f3a")
        #expect(endpoint.sessionURL(location: "session/7f3a") == "http://127.0.0.1:8889/cam/session/7f3a")
        #expect(endpoint.sessionURL(location: "https://other.example.com/s/1") == "https://other.example.com/s/1")
        #expect(endpoint.sessionURL(location: "") == nil)
        #expect(endpoint.sessionURL(location: "/s\r\nX-Injected: 1") == nil)
    }

    @Test func anOfferIsReadSectionBySection() throws {
        let offer = try WebRTCDescription(parsing: Self.offer)
        #expect(offer.media.map(\.kind) == ["video", "audio"])
        #expect(offer.media.map(\.mid) == ["video0", "audio1"])
        #expect(offer.media.map(\.direction) == [.recvonly, .recvonly])
        #expect(offer.media[0].preferredCodecs.map(\.name) == ["H264", "VP8"])
        #expect(offer.media[1].codecs == [.init(payloadType: 111, name: "OPUS", clockRate: 48000, channels: 2)])
        #expect(offer.sentMedia.isEmpty)
        #expect(offer.receivedMedia.map(\.kind) == ["video", "audio"])
        let credentials = try #require(offer.iceCredentials(of: offer.media[0]))
        #expect(credentials.ufrag == "qXoCzh3j0Vh3kU8n" && credentials.password == "T3hVbe2wCXq6s0yHbbZxZ4JkMYtq4rI5")
    }

    @Test func anAnswerSaysWhatComesAndARefusedSectionIsNotSent() throws {
        let answer = try WebRTCDescription(parsing: Self.answer)
        #expect(answer.sentMedia.map(\.kind) == ["video"])
        // A refused section (port 0) takes nothing either: a WHIP publisher's stream is refused so.
        #expect(answer.receivedMedia.isEmpty)
        #expect(answer.media[1].port == 0 && answer.media[1].direction == .inactive)
        #expect(answer.media[0].candidates == ["candidate:4f6d2d3 1 udp 2130706431 127.0.0.1 50372 typ host"])
        // Session-level credentials stand for a section that has none of its own.
        #expect(answer.iceCredentials(of: answer.media[0])?.ufrag == "Zr4q")
    }

    @Test func theSessionsDirectionIsEachSectionsUnlessItSaysOtherwise() throws {
        let text = "v=0\r\ns=-\r\na=sendonly\r\nm=video 9 RTP/AVP 96\r\nm=audio 9 RTP/AVP 0\r\na=recvonly\r\n"
        let description = try WebRTCDescription(parsing: text)
        #expect(description.media.map(\.direction) == [.sendonly, .recvonly])
        #expect(description.sentMedia.map(\.kind) == ["video"])
        #expect(description.receivedMedia.map(\.kind) == ["audio"])
    }

    @Test func whatIsNotADescriptionIsAClearError() {
        #expect(throws: WebRTCDescriptionError.self) { try WebRTCDescription(parsing: "") }
        #expect(throws: WebRTCDescriptionError.self) { try WebRTCDescription(parsing: "<html>404</html>") }
        #expect(throws: WebRTCDescriptionError.self) { try WebRTCDescription(parsing: "v=0\r\nm=video\r\n") }
        #expect(throws: WebRTCDescriptionError.self) { try WebRTCDescription(parsing: "v=0\r\nm=video 70000 RTP/AVP 96\r\n") }
        #expect(throws: WebRTCDescriptionError.self) { try WebRTCDescription(parsing: "v=0\r\nno equals sign\r\n") }
        let huge = "v=0\r\n" + String(repeating: "a=x\r\n", count: WebRTCDescription.maximumBytes / 5 + 1)
        #expect(throws: WebRTCDescriptionError.self) { try WebRTCDescription(parsing: huge) }
        let many = "v=0\r\n" + String(repeating: "m=video 9 RTP/AVP 96\r\n", count: WebRTCDescription.maximumMedia + 1)
        #expect(throws: WebRTCDescriptionError.self) { try WebRTCDescription(parsing: many) }
    }

    /// An offer sent whole (to a server that takes no trickle): each candidate at the end
    /// of its section, the end of gathering in the first.
    @Test func candidatesGoIntoTheOfferAtTheEndOfTheirSection() throws {
        let host = "candidate:1 1 UDP 2015363327 192.0.2.2 50893 typ host"
        let text = WebRTCDescription.adding(candidates: [(0, host), (5, "candidate:9 1 UDP 1 192.0.2.9 9 typ host")], to: Self.offer, gatheringDone: true)
        let lines = text.components(separatedBy: "\r\n")
        let audio = try #require(lines.firstIndex { $0.hasPrefix("m=audio") })
        #expect(lines[audio - 2] == "a=\(host)" && lines[audio - 1] == "a=end-of-candidates")
        #expect(!text.contains("192.0.2.9"), "a candidate of no section is left out")
        let parsed = try WebRTCDescription(parsing: text)
        #expect(parsed.media[0].candidates == [host] && parsed.media[1].candidates.isEmpty)
        #expect(parsed.media.map(\.mid) == (try WebRTCDescription(parsing: Self.offer)).media.map(\.mid))
    }

    /// RFC 9725 section 4.3.1's form: the section, its mid, the credentials, the candidates.
    @Test func aTrickleFragmentCarriesEachSectionsNewCandidates() throws {
        let offer = try WebRTCDescription(parsing: Self.offer)
        let host = "candidate:1387637174 1 udp 2122260223 192.0.2.1 61764 typ host"
        let body = try #require(TrickleFragment.body(offer: offer, candidates: [(0, host)], gatheringDone: false))
        #expect(body == """
        m=video 9 UDP/TLS/RTP/SAVPF 96 97\r
        a=mid:video0\r
        a=ice-ufrag:qXoCzh3j0Vh3kU8n\r
        a=ice-pwd:T3hVbe2wCXq6s0yHbbZxZ4JkMYtq4rI5\r
        a=\(host)\r

        """)
        let end = try #require(TrickleFragment.body(offer: offer, candidates: [], gatheringDone: true))
        #expect(end.hasSuffix("a=end-of-candidates\r\n") && end.hasPrefix("m=video 9 "))
        #expect(TrickleFragment.body(offer: offer, candidates: [], gatheringDone: false) == nil)
        #expect(TrickleFragment.body(offer: offer, candidates: [(2, host)], gatheringDone: false) == nil)
        #expect(TrickleFragment.body(offer: offer, candidates: [(0, host + "\r\na=injected")], gatheringDone: false) == nil)
    }
}

extension WebRTCEndpoint {
    static func forTest(_ role: Role, _ url: String) -> WebRTCEndpoint? { WebRTCEndpoint(url, forced: role) }
}
