import Foundation
import ReelCore
import Testing

@Suite struct SessionDescriptionParsingTests {
    @Test func anFFmpegSDPWithSRTPIsRead() throws {
        let text = """
        v=0\r
        o=- 0 0 IN IP4 127.0.0.1\r
        s=No Name\r
        c=IN IP4 127.0.0.1\r
        t=0 0\r
        a=tool:libavformat 59.27.100\r
        m=audio 5006 RTP/AVP 97\r
        a=rtpmap:97 MPEG4-GENERIC/48000/2\r
        m=video 5004 RTP/SAVP 96\r
        a=rtpmap:96 H264/90000\r
        a=fmtp:96 packetization-mode=1; sprop-parameter-sets=Z0LAHw==,aAE=; profile-level-id=42C01F\r
        a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwd|2^31\r

        """
        let description = try SessionDescription(parsing: text)
        #expect(description.codec == .h264 && description.port == 5004 && description.address == "127.0.0.1")
        #expect(description.payloadType == 96 && description.clockRate == 90000 && description.packetizationMode == 1)
        #expect(description.parameterSets == [[0x67, 0x42, 0xC0, 0x1F], [0x68, 1]])
        #expect(description.crypto.count == 1 && description.crypto[0].suite == .aesCM128HMACSHA1_80)
        #expect(description.crypto[0].keyAndSalt == Array(0..<30))
        // What Reel writes, it reads back.
        let again = try SessionDescription(parsing: description.text)
        #expect(again == description)
    }

    @Test func anH265SDPWithDONIsRead() throws {
        let text = """
        v=0
        c=IN IP6 ::1
        m=video 6000 RTP/AVP 98
        a=rtpmap:98 H265/90000
        a=fmtp:98 sprop-vps=QAEMAf//; sprop-sps=QgEB; sprop-pps=RAHA; sprop-max-don-diff=2
        a=rtcp:7001
        """
        let description = try SessionDescription(parsing: text)
        #expect(description.codec == .h265 && description.address == "::1" && description.maxDonDiff == 2 && description.rtcpPort == 7001)
        #expect(description.parameterSets.map { VideoCodec.h265.nalType($0[0]) } == [32, 33, 34])
    }

    @Test(arguments: [
        "v=0\nc=IN IP4 1.2.3.4\nm=audio 5000 RTP/AVP 0\n",
        "v=0\nc=IN IP4 1.2.3.4\nm=video 5000 RTP/AVP 96\na=rtpmap:96 VP8/90000\n",
        "v=0\nm=video 5000 RTP/AVP 96\na=rtpmap:96 H264/90000\n",
        "v=0\nc=IN IP4 1.2.3.4\nm=video 5000 RTP/SAVP 96\na=rtpmap:96 H264/90000\n",
        "v=0\nc=IN IP4 1.2.3.4\nm=video 5000 RTP/AVP 96\na=rtpmap:96 H264/90000\na=fmtp:96 sprop-parameter-sets=%%%\n",
        "v=0\nc=IN IP4 1.2.3.4\nm=video 5000 RTP/AVP 96\na=rtpmap:96 H264/90000\na=crypto:1 F8_128_HMAC_SHA1_80 inline:AAAA\n",
        "v=0\nc=IN IP4 1.2.3.4\nm=video 99999 RTP/AVP 96\na=rtpmap:96 H264/90000\n",
        // Found by libFuzzer: fields made only of slashes.
        "v=0\nc=IN IjP4 //// \u{C6}",
        "v=0\nc=IN IP4 1.2.3.4\nm=video // RTP/AVP 96\na=rtpmap:96 H264/90000\n",
    ])
    func unusableSDPsSayWhy(_ text: String) {
        #expect(throws: RTPError.self) { try SessionDescription(parsing: text) }
    }
}
