import Foundation
import Testing

extension PlaybackTests {
    /// A second, independent sender: GStreamer's rtph264pay and rtph265pay, parameter sets
    /// in-band (config-interval=-1), paced by the pipeline clock.
    @Suite(.serialized) struct GStreamerSenderTests {
        @Test(arguments: ["zerolatency", "h265"])
        func theRecordingDecodesToTheFramesSent(_ name: String) throws {
            let directory = try Paths.temporaryDirectory()
            let item = FFmpegSenderTests.cases.first { $0.name == name }!
            let sent = try RTPStreams.sent(name)
            let port = try RTPStreams.freePortPair()
            let codec = name == "h265" ? "H265" : "H264"
            let sdp = directory.appendingPathComponent("stream.sdp").path
            try """
            v=0
            o=- 0 0 IN IP4 127.0.0.1
            s=GStreamer
            c=IN IP4 127.0.0.1
            t=0 0
            m=video \(port) RTP/AVP 96
            a=rtpmap:96 \(codec)/90000
            a=fmtp:96 packetization-mode=1

            """.write(toFile: sdp, atomically: true, encoding: .utf8)
            let recording = directory.appendingPathComponent("got.\(item.recordExtension)").path
            let receiver = try RTPStreams.Receiver(["--sdp", sdp, "--record", recording, "--idle-timeout", "1.5"], directory: directory)
            try RTPStreams.waitUntilBound(port)
            let parser = name == "h265" ? "h265parse" : "h264parse"
            let payloader = name == "h265" ? "rtph265pay" : "rtph264pay"
            let pipeline = ["-q", "filesrc", "location=\(sent)", "!", "tsdemux", "!", parser, "!", payloader, "pt=96", "config-interval=-1", "mtu=1200",
                            "!", "udpsink", "host=127.0.0.1", "port=\(port)", "sync=true"]
            let sending = try Processes.run("gst-launch-1.0", pipeline, timeout: 60)
            #expect(sending.status == 0, "\(sending.stderr)")
            let counts = RTPStreams.packetCounts(try receiver.report())
            #expect(counts["lost"] == 0 && counts["duplicate"] == 0 && counts["corrupted_access_units"] == 0, "\(counts)")
            let expected = try RTPStreams.frameHashes(sent)
            let got = try RTPStreams.frameHashes(recording)
            #expect(got.elementsEqual(expected), "\(got.count) frames recorded, \(expected.count) sent, \(zip(got, expected).filter { $0 != $1 }.count) differ")
            print("RTP receive GStreamer \(payloader): \(got.count)/\(expected.count) frames identical, \(counts["received"] ?? 0) packets")
        }
    }
}
