import Foundation
import ReelCore
import Testing

@Suite struct RTSPMessageTests {
    @Test func aRequestIsWrittenWithItsSequenceNumber() {
        let request = RTSPRequest("SETUP", "rtsp://camera/stream/trackID=0", headers: [("Transport", "RTP/AVP/TCP;unicast;interleaved=0-1")])
        #expect(String(decoding: request.serialized(sequence: 3), as: UTF8.self)
                == "SETUP rtsp://camera/stream/trackID=0 RTSP/1.0\r\nCSeq: 3\r\nTransport: RTP/AVP/TCP;unicast;interleaved=0-1\r\n\r\n")
    }

    /// A response with a body, then two interleaved packets and another response, arriving a
    /// byte at a time: each item comes out whole, once, in order.
    @Test func responsesAndInterleavedPacketsAreCutFromBytesInAnyChunks() throws {
        let sdp = "v=0\r\nm=video 0 RTP/AVP 96\r\n"
        var bytes = Array("RTSP/1.0 200 OK\r\nCSeq: 2\r\nContent-Type: application/sdp\r\nContent-Length: \(sdp.utf8.count)\r\n\r\n\(sdp)".utf8)
        bytes += [0x24, 0, 0, 3, 0x80, 0x60, 0x01] + [0x24, 1, 0, 0]
        bytes += Array("RTSP/1.0 454 Session Not Found\nCSeq: 9\nSession: 12345678\n\n".utf8)
        var parser = RTSPConnectionParser()
        var items: [RTSPConnectionItem] = []
        for byte in bytes {
            parser.append([byte])
            while let item = try parser.next() { items.append(item) }
        }
        #expect(items.count == 4)
        guard items.count == 4, case .response(let first) = items[0], case .response(let last) = items[3] else { return }
        #expect(first.status == 200 && first.sequence == 2 && first.header("content-type") == "application/sdp" && String(decoding: first.body, as: UTF8.self) == sdp)
        #expect(items[1] == .interleaved(channel: 0, packet: [0x80, 0x60, 0x01]) && items[2] == .interleaved(channel: 1, packet: []))
        #expect(last.status == 454 && last.reason == "Session Not Found" && last.sequence == 9 && last.header("Session") == "12345678")
    }

    @Test func bytesThatAreNotRTSPOrTooLargeAreErrors() {
        var garbage = RTSPConnectionParser()
        garbage.append(Array("HTTP/1.1 200 OK\r\n".utf8))
        #expect(throws: RTPError.self) { try garbage.next() }
        // Spaces before the status line: not RTSP, whether the block came whole or a byte
        // at a time (libFuzzer found the whole block taken and the bytes refused).
        let indented = Array(" RTSP/1.0 200 OK\r\nCSeq: 1\r\n\r\n".utf8)
        var whole = RTSPConnectionParser()
        whole.append(indented)
        #expect(throws: RTPError.self) { try whole.next() }
        var bytewise = RTSPConnectionParser()
        #expect(throws: RTPError.self) {
            for byte in indented {
                bytewise.append([byte])
                _ = try bytewise.next()
            }
        }
        var huge = RTSPConnectionParser()
        huge.append(Array("RTSP/1.0 200 OK\r\nContent-Length: 99999999\r\n\r\n".utf8))
        #expect(throws: RTPError.self) { try huge.next() }
        var endless = RTSPConnectionParser()
        endless.append(Array("RTSP/1.0 200 OK\r\n".utf8) + Array(repeating: UInt8(ascii: "a"), count: RTSPConnectionParser.maxHeaderBytes + 10))
        #expect(throws: RTPError.self) { try endless.next() }
    }

    /// MD5 from coreutils' md5sum, as the hash the answer is built with.
    private func md5(_ text: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/md5sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try? process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try? input.fileHandleForWriting.close()
        let digest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(digest.prefix(32))
    }

    /// RFC 2617's worked example (section 3.5): the response it publishes.
    @Test func aDigestAnswerMatchesRFC2617sExample() throws {
        let challenge = try #require(RTSPAuthentication(challenges: [
            "Basic realm=\"testrealm@host.com\"",
            "Digest realm=\"testrealm@host.com\", qop=\"auth,auth-int\", nonce=\"dcd98b7102dd2f0e8b11d0f600bfb0c093\", opaque=\"5ccc069c403ebaf9f0171e9517f40e41\"",
        ]))
        #expect(challenge.scheme == .digest)
        let answer = challenge.authorization(method: "GET", uri: "/dir/index.html", user: "Mufasa", password: "Circle Of Life",
                                             counter: 1, clientNonce: "0a4f113b", md5: md5)
        #expect(answer.contains("response=\"6629fae49393a05397450978507c4ef1\""), "\(answer)")
        #expect(answer.contains("nc=00000001") && answer.contains("cnonce=\"0a4f113b\"") && answer.contains("opaque=\"5ccc069c403ebaf9f0171e9517f40e41\""))
    }

    /// Without qop (RFC 2069, as gst-rtsp-server and most cameras ask): MD5(HA1:nonce:HA2).
    @Test func aDigestAnswerWithoutQopHashesTheNonceAlone() throws {
        let challenge = try #require(RTSPAuthentication(challenges: ["Digest realm=\"GStreamer RTSP Server\", nonce=\"abc\""]))
        let answer = challenge.authorization(method: "DESCRIBE", uri: "rtsp://127.0.0.1:8554/clip", user: "viewer", password: "s3cr@t", md5: md5)
        let expected = md5(md5("viewer:GStreamer RTSP Server:s3cr@t") + ":abc:" + md5("DESCRIBE:rtsp://127.0.0.1:8554/clip"))
        #expect(answer == "Digest username=\"viewer\", realm=\"GStreamer RTSP Server\", nonce=\"abc\", uri=\"rtsp://127.0.0.1:8554/clip\", response=\"\(expected)\"")
    }

    /// `stale=true`, in any case, marks a challenge whose nonce alone expired.
    @Test func aStaleChallengeIsToldFromARefusal() throws {
        let stale = try #require(RTSPAuthentication(challenges: ["Digest realm=\"r\", nonce=\"new\", stale=TRUE"]))
        #expect(stale.isStale && stale.parameters["nonce"] == "new")
        #expect(try #require(RTSPAuthentication(challenges: ["Digest realm=\"r\", nonce=\"n\", stale=\"true\""])).isStale)
        #expect(try !#require(RTSPAuthentication(challenges: ["Digest realm=\"r\", nonce=\"n\", stale=false"])).isStale)
        #expect(try !#require(RTSPAuthentication(challenges: ["Digest realm=\"r\", nonce=\"n\""])).isStale)
    }

    /// What the server's challenge says is echoed into the answer as quoted strings that
    /// read back the same; a challenge with a line break in it is refused, not echoed.
    @Test func theAnswerQuotesWhatTheServerSaid() throws {
        let challenge = try #require(RTSPAuthentication(challenges: [#"Digest realm="a \"quoted\" realm\\", nonce="n", opaque="o\"""#]))
        #expect(challenge.parameters["realm"] == #"a "quoted" realm\"#)
        let answer = challenge.authorization(method: "DESCRIBE", uri: "rtsp://cam/x", user: "u", password: "p", md5: { _ in "0" })
        let read = RTSPAuthentication.parameterList(String(answer.dropFirst("Digest ".count)))
        #expect(read["realm"] == challenge.parameters["realm"] && read["opaque"] == #"o""# && read["nonce"] == "n", "\(answer)")
        #expect(RTSPAuthentication(challenges: ["Digest realm=\"r\r\nX-Injected: 1\", nonce=\"n\""]) == nil)
    }

    @Test func basicIsTakenWhenItIsAllTheServerOffers() throws {
        let challenge = try #require(RTSPAuthentication(challenges: ["Basic realm=\"camera\""]))
        #expect(challenge.authorization(method: "DESCRIBE", uri: "x", user: "Aladdin", password: "open sesame", md5: md5) == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        #expect(RTSPAuthentication(challenges: ["Negotiate abc", "Digest realm=\"r\", nonce=\"n\", algorithm=SHA-256"]) == nil)
    }
}
