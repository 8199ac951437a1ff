import Foundation
import Testing

extension PlaybackTests {
    @Suite(.serialized) struct SRTPAttackTests {
        /// Forged packets, replays and a sequence-number jump slipped between the packets of
        /// ffmpeg's SRTP stream (both suites): libsrtp refuses each before depacketizing, the
        /// statistics count each kind exactly, and the stream goes on: no loss, no damaged
        /// picture, every frame recorded bit-exact.
        @Test(arguments: ["srtp-80", "srtp-32"])
        func attacksAreRefusedCountedAndTheStreamGoesOn(_ name: String) throws {
            let directory = try Paths.temporaryDirectory()
            let item = FFmpegSenderTests.cases.first { $0.name == name }!
            let sent = try RTPStreams.encoded(item.name, item.encoder, container: item.container)
            let port = try RTPStreams.freePortPair()
            let relay = try SRTPAttackRelay(to: port)
            // The SDP (with the key) names the receiver's port; ffmpeg sends to the relay.
            let sdp = try RTPStreams.writeSDP(for: sent, to: "srtp://127.0.0.1:\(port)", sender: item.sender, in: directory)
            let recording = directory.appendingPathComponent("got.\(item.recordExtension)").path
            let receiver = try RTPStreams.Receiver(["--sdp", sdp, "--record", recording, "--idle-timeout", "1.5"], directory: directory)
            try RTPStreams.waitUntilBound(port)
            let sending = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", sent, "-c", "copy"] + item.sender
                                            + ["-f", "rtp", "srtp://127.0.0.1:\(relay.input.port)"])
            #expect(sending.status == 0, "\(sending.stderr)")
            let counts = RTPStreams.packetCounts(try receiver.report())
            relay.stop()
            let attacks = relay.counts
            #expect(attacks.forged > 20 && attacks.replayed > 10 && attacks.sequenceJumps == 1, "\(attacks)")
            #expect(counts["authentication_failures"] == attacks.forged + attacks.sequenceJumps, "receiver \(counts), relay \(attacks)")
            #expect(counts["replayed_packets"] == attacks.replayed, "receiver \(counts), relay \(attacks)")
            #expect(counts["received"] == attacks.passed, "receiver \(counts), relay \(attacks)")
            #expect(counts["lost"] == 0 && counts["duplicate"] == 0 && counts["corrupted_access_units"] == 0, "\(counts)")
            let expected = try RTPStreams.frameHashes(sent)
            let got = try RTPStreams.frameHashes(recording)
            #expect(expected.count == 75 && got == expected, "\(got.count) frames recorded of \(expected.count)")
            print("SRTP attacks \(name): \(attacks.passed) packets passed; \(attacks.forged) forged, \(attacks.replayed) replayed, \(attacks.sequenceJumps) sequence jump slipped in; receiver refused \(counts["authentication_failures"] ?? -1) as unauthentic and \(counts["replayed_packets"] ?? -1) as replays; \(got.count)/\(expected.count) frames bit-exact")
        }
    }
}
