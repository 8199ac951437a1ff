import Foundation
import ReelCore
import Testing

@Suite struct RTSPPresentationTests {
    /// gst-rtsp-server's ONVIF answer to a DESCRIBE that requires the back-channel: the
    /// picture the client receives, and the audio it sends (`sendonly` as the server writes
    /// it), PCMU by its static payload type with no rtpmap in the second medium.
    @Test func anONVIFBackChannelIsTheSendOnlyAudio() throws {
        let sdp = """
        v=0\r
        o=- 10586875674479463270 1 IN IP4 127.0.0.1\r
        s=Session streamed with GStreamer\r
        t=0 0\r
        a=control:*\r
        m=video 0 RTP/AVP 96\r
        a=rtpmap:96 H264/90000\r
        a=control:stream=0\r
        a=recvonly\r
        m=audio 0 RTP/AVP 8 0\r
        a=rtpmap:8 PCMA/8000\r
        a=control:stream=1\r
        a=x-onvif-track:AUDIO001\r
        a=sendonly\r

        """
        let presentation = try RTSPPresentation(sdp: sdp, base: "rtsp://127.0.0.1:8554/cam/")
        #expect(presentation.media.map(\.direction) == ["recvonly", "sendonly"])
        let backchannel = try #require(presentation.backchannel)
        #expect(backchannel.control == "rtsp://127.0.0.1:8554/cam/stream=1")
        #expect(backchannel.payloads == [.init(type: 8, encoding: "PCMA", clockRate: 8000, channels: 1), .init(type: 0, encoding: "PCMU", clockRate: 8000, channels: 1)])
        // A camera that only sends has none.
        let plain = try RTSPPresentation(sdp: sdp.replacingOccurrences(of: "a=sendonly", with: "a=recvonly"), base: "rtsp://127.0.0.1:8554/cam/")
        #expect(plain.backchannel == nil)
    }

    /// gst-rtsp-server's answer for a file with sound: relative controls, Content-Base.
    @Test func aPresentationWithSoundIsNotVideoOnly() throws {
        let sdp = """
        v=0\r
        o=- 1188340656180883 1 IN IP4 127.0.0.1\r
        s=Session streamed with GStreamer\r
        t=0 0\r
        a=control:*\r
        a=range:npt=0-2.02\r
        m=video 0 RTP/AVP 96\r
        c=IN IP4 0.0.0.0\r
        a=rtpmap:96 H264/90000\r
        a=fmtp:96 packetization-mode=1;sprop-parameter-sets=Z2QADaw05jwCIAAAAwAgAAAHkeKFSA==,aO+8sA==\r
        a=control:stream=0\r
        m=audio 0 RTP/AVP 97\r
        c=IN IP4 0.0.0.0\r
        a=rtpmap:97 MPEG4-GENERIC/48000\r
        a=control:stream=1\r

        """
        let presentation = try RTSPPresentation(sdp: sdp, base: "rtsp://127.0.0.1:8554/clip/")
        #expect(presentation.media.map(\.type) == ["video", "audio"])
        #expect(presentation.media.map(\.control) == ["rtsp://127.0.0.1:8554/clip/stream=0", "rtsp://127.0.0.1:8554/clip/stream=1"])
        #expect(presentation.media.map(\.encoding) == ["H264", "MPEG4-GENERIC"])
        #expect(presentation.aggregateControl == "rtsp://127.0.0.1:8554/clip/")
        #expect(presentation.video?.codec == .h264 && presentation.video?.parameterSets.count == 2)
        #expect(!presentation.isVideoOnly)
    }

    @Test func oneH265StreamWithAnAbsoluteControlIsVideoOnly() throws {
        let sdp = "v=0\r\nm=video 0 RTP/AVP 98\r\nc=IN IP4 0.0.0.0\r\na=rtpmap:98 H265/90000\r\na=control:rtsp://10.0.0.2/h265/track1\r\n"
        let presentation = try RTSPPresentation(sdp: sdp, base: "rtsp://10.0.0.2/h265")
        #expect(presentation.isVideoOnly && presentation.video?.codec == .h265)
        #expect(presentation.media[0].control == "rtsp://10.0.0.2/h265/track1" && presentation.aggregateControl == "rtsp://10.0.0.2/h265")
        let mjpeg = try RTSPPresentation(sdp: "v=0\r\nm=video 0 RTP/AVP 26\r\nc=IN IP4 0.0.0.0\r\na=control:track1\r\n", base: "rtsp://cam/")
        #expect(!mjpeg.isVideoOnly && mjpeg.media[0].control == "rtsp://cam/track1")
        #expect(throws: RTPError.self) { try RTSPPresentation(sdp: "v=0\r\n", base: "rtsp://cam/") }
    }

    @Test func transportAndSessionHeadersAreRead() throws {
        let tcp = RTSPTransportHeader("RTP/AVP/TCP;unicast;interleaved=2-3;ssrc=1A2B3C4D;mode=\"PLAY\"")
        #expect(tcp.isInterleaved && tcp.channels?.rtp == 2 && tcp.channels?.rtcp == 3 && tcp.ssrc == 0x1A2B_3C4D && tcp.serverPorts == nil)
        let udp = RTSPTransportHeader("RTP/AVP;unicast;client_port=50000-50001;server_port=6970-6971")
        #expect(!udp.isInterleaved && udp.serverPorts?.rtp == 6970 && udp.serverPorts?.rtcp == 6971)
        // A field that is only "=" (it made an empty name list and crashed the reader).
        let odd = RTSPTransportHeader("RTP/AVP;=;interleaved=;server_port=-")
        #expect(!odd.isInterleaved && odd.channels == nil && odd.serverPorts == nil)
        #expect(RTSPTransportHeader("RTP/AVP;server_port=9223372036854775807").serverPorts == nil)
        #expect(RTSPTransportHeader("RTP/AVP;server_port=65535").serverPorts.map { [$0.rtp, $0.rtcp] } == [65535, 65535])
        #expect(RTSPSessionHeader("abc;timeout=nan")?.timeout == 60)
        let session = try #require(RTSPSessionHeader("f0e1d2c3;timeout=30"))
        #expect(session.id == "f0e1d2c3" && session.timeout == 30)
        #expect(RTSPSessionHeader("abc")?.timeout == 60 && RTSPSessionHeader("") == nil)
    }

    @Test func anAddressGivesItsServerAndCredentials() throws {
        let address = try #require(RTSPAddress("rtsp://viewer:s3cr%40t@127.0.0.1:8554/clip?x=1"))
        #expect(address.host == "127.0.0.1" && address.port == 8554 && address.user == "viewer" && address.password == "s3cr@t")
        #expect(address.url == "rtsp://127.0.0.1:8554/clip?x=1")
        let plain = try #require(RTSPAddress("rtsp://camera.local/live"))
        #expect(plain.port == 554 && plain.user == nil && plain.url == "rtsp://camera.local/live")
        let six = try #require(RTSPAddress("rtsp://[::1]:9000/a"))
        #expect(six.host == "::1" && six.port == 9000)
        #expect(RTSPAddress("rtsp://host:0/a") == nil && RTSPAddress("http://host/a") == nil && RTSPAddress("rtsp:///a") == nil)
    }
}
