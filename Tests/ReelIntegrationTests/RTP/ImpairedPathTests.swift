import Foundation
import Testing

extension PlaybackTests {
    @Suite(.serialized) struct ImpairedPathTests {
        /// Loss (10 % and a burst), duplication, delay and reordering between ffmpeg and Reel:
        /// the counts equal the relay's ground truth, and the recording holds only intact
        /// pictures, from the next keyframe after each loss.
        @Test(arguments: ["zerolatency", "h265"])
        func countsMatchTheRelayAndDecodingResumesAtKeyframes(_ name: String) throws {
            let directory = try Paths.temporaryDirectory()
            let item = FFmpegSenderTests.cases.first { $0.name == name }!
            let sent = try RTPStreams.sent(name)
            let port = try RTPStreams.freePortPair()
            let relay = try ImpairmentRelay(to: port)
            // The SDP names the receiver's port; the real sender sends to the relay.
            let sdp = try RTPStreams.writeSDP(for: sent, to: "rtp://127.0.0.1:\(port)", in: directory)
            let url = "rtp://127.0.0.1:\(relay.input.port)"
            let recording = directory.appendingPathComponent("got.\(item.recordExtension)").path
            let receiver = try RTPStreams.Receiver(["--sdp", sdp, "--record", recording, "--idle-timeout", "1.5"], directory: directory)
            try RTPStreams.waitUntilBound(port)
            let sending = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", sent, "-c", "copy", "-f", "rtp", url])
            #expect(sending.status == 0)
            let counts = RTPStreams.packetCounts(try receiver.report())
            relay.stop()
            #expect(counts["lost"] == relay.dropped.count, "receiver \(counts), relay dropped \(relay.dropped.count)")
            #expect(counts["duplicate"] == relay.duplicated, "receiver \(counts), relay duplicated \(relay.duplicated)")
            #expect(counts["late"] == 0)
            let expected = try RTPStreams.frameHashes(sent)
            let decoded = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", recording, "-f", "framemd5", "-"])
            #expect(decoded.status == 0 && decoded.stderr.isEmpty, "ffmpeg: \(decoded.stderr)")
            let got = try RTPStreams.frameHashes(recording)
            // Every recorded picture is one that was sent, in order, and the clean tail is all there.
            var remaining = expected[...]
            for hash in got {
                guard let index = remaining.firstIndex(of: hash) else { Issue.record("a recorded frame that was not sent"); break }
                remaining = remaining[(index + 1)...]
            }
            #expect(got.count >= 25 && got.count < expected.count)
            #expect(got.suffix(25) == expected.suffix(25))
            print("RTP impaired \(name): relay dropped \(relay.dropped.count), duplicated \(relay.duplicated); receiver lost \(counts["lost"] ?? -1), duplicate \(counts["duplicate"] ?? -1), reordered \(counts["reordered"] ?? -1); \(got.count)/\(expected.count) intact frames recorded")
        }
    }
}
