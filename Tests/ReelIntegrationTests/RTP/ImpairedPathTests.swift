import Foundation
import Testing

extension PlaybackTests {
    /// The impairment matrix: ffmpeg sends a 3 s stream (keyframes every second) through a
    /// relay that impairs it one way per case, and `reel rtp receive` records it. Each case
    /// is judged against the relay's ground truth: the counts (lost, duplicated, reordered,
    /// garbage, restarts, jitter) equal what the relay did, no picture that lost a packet
    /// reaches the recording, and every picture from the keyframe after each damage on is
    /// there, bit-exact against ffmpeg's decode of the file sent. No case may crash or stall.
    @Suite(.serialized) struct ImpairedPathTests {
        struct Case: CustomStringConvertible, Sendable {
            var impairment: ImpairmentRelay.Impairment
            var stream = "zerolatency"
            var latencyMilliseconds = 200
            /// How long the relay impairs; the jitter case impairs to the end, so that the
            /// receiver's final jitter figure is the impaired one.
            var impairedSeconds = 1.6
            var description: String { "\(stream): \(impairment)" }
        }

        static let cases: [Case] = [
            Case(impairment: .loss(0.01)),
            Case(impairment: .loss(0.05)),
            Case(impairment: .loss(0.20)),
            Case(impairment: .burst(.init(enterBad: 0.05, leaveBad: 0.3))),
            // Held back by 30 packets, up to about 400 ms in the stream's quiet parts: the
            // buffer's latency must cover that for none of them to come too late.
            Case(impairment: .reorder(depth: 3)),
            Case(impairment: .reorder(depth: 30), latencyMilliseconds: 1000),
            Case(impairment: .duplicate(0.10)),
            Case(impairment: .jitter(0.05), impairedSeconds: .infinity),
            Case(impairment: .ssrcChange),
            Case(impairment: .sequenceJump(20_000)),
            Case(impairment: .timestampJump(450_000)),
            Case(impairment: .timestampJump(-900_000)),
            Case(impairment: .garbage(0.3)),
            Case(impairment: .mixed),
            Case(impairment: .loss(0.05), stream: "h265"),
            Case(impairment: .mixed, stream: "h265"),
        ]

        /// The cases two at a time: each is a 3 s real-time stream that keeps a core a tenth
        /// busy, and the chain waited out 16 of them one after another (89 s).
        static let pairs: [[Case]] = Threads.inPairs(cases)

        @Test(.timeLimit(.minutes(2)), arguments: pairs)
        func theReceiverCountsWhatTheRelayDidAndRecordsOnlyIntactPictures(_ pair: [Case]) throws {
            let measured = try Threads.runConcurrently(pair, Self.send)
            for (item, run) in zip(pair, measured) { try Self.check(item, run) }
        }

        /// What one case's run left: the sender's and the receiver's outcomes and the relay's truth.
        struct Run: @unchecked Sendable {
            var sendingStatus: Int32
            var report: [String: Any]
            var truth: ImpairmentRelay.Truth
            var recording: String
        }

        /// Sends the case's stream through its relay to a receiver that records it.
        static func send(_ item: Case) throws -> Run {
            let directory = try Paths.temporaryDirectory()
            let sent = try RTPStreams.sent(item.stream)
            let port = try RTPStreams.freePortPair()
            let relay = try ImpairmentRelay(to: port, impairment: item.impairment, impairedSeconds: item.impairedSeconds)
            // The SDP names the receiver's port; the real sender sends to the relay.
            let sdp = try RTPStreams.writeSDP(for: sent, to: "rtp://127.0.0.1:\(port)", in: directory)
            let recording = directory.appendingPathComponent(item.stream == "h265" ? "got.h265" : "got.mp4").path
            let receiver = try RTPStreams.Receiver(["--sdp", sdp, "--record", recording, "--idle-timeout", "1.5",
                                                    "--latency", "\(item.latencyMilliseconds)"], directory: directory)
            try RTPStreams.waitUntilBound(port)
            let sending = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", sent, "-c", "copy", "-f", "rtp",
                                                       "rtp://127.0.0.1:\(relay.input.port)"])
            let report = try receiver.report()
            return Run(sendingStatus: sending.status, report: report, truth: relay.stop(), recording: recording)
        }

        static func check(_ item: Case, _ run: Run) throws {
            let (report, truth, recording) = (run.report, run.truth, run.recording)
            let isH265 = item.stream == "h265"
            let sent = try RTPStreams.sent(item.stream)
            #expect(run.sendingStatus == 0, "\(item): ffmpeg's sender failed")
            let counts = RTPStreams.packetCounts(report)
            let packets = (report["statistics"] as? [String: Any])?["packets"] as? [String: Any] ?? [:]
            let jitter = packets["jitter_seconds"] as? Double ?? -1

            #expect(counts["lost"] == truth.dropped.count, "\(item): \(counts); the relay dropped \(truth.dropped.count)")
            #expect(counts["duplicate"] == truth.duplicated, "\(item): \(counts); the relay duplicated \(truth.duplicated)")
            #expect(counts["reordered"] == truth.reordered, "\(item): \(counts); the relay reordered \(truth.reordered)")
            #expect(counts["malformed_packets"] == truth.garbage, "\(item): \(counts); the relay sent \(truth.garbage) garbage datagrams")
            #expect(counts["resets"] == truth.restarts, "\(item): \(counts); the sender restarted \(truth.restarts) times")
            #expect(counts["late"] == 0 && counts["invalid"] == 0, "\(item): \(counts)")
            // Kernel arrival times against the relay's send times: loopback adds microseconds.
            #expect(abs(jitter - truth.jitterSeconds) <= max(0.000_1, 0.03 * truth.jitterSeconds),
                    "\(item): jitter: reel \(jitter * 1000) ms, from the relay's send times \(truth.jitterSeconds * 1000) ms")

            let expected = try RTPStreams.frameHashes(sent)
            let decoded = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", recording, "-f", "framemd5", "-"])
            #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(item): ffmpeg: \(decoded.stderr)")
            let got = try RTPStreams.frameHashes(recording)
            // Every recorded picture is one that was sent, in order.
            var remaining = expected[...]
            var recordedIndices: [Int] = []
            for hash in got {
                guard let index = remaining.firstIndex(of: hash) else {
                    Issue.record("\(item): recorded picture \(recordedIndices.count) was not sent (damaged, or decoded from a damaged one)")
                    break
                }
                recordedIndices.append(index)
                remaining = remaining[(index + 1)...]
            }
            let required = isH265 ? Set(50..<expected.count) : try intactPictures(sent: sent, truth: truth)
            let missing = required.subtracting(recordedIndices).sorted()
            #expect(missing.isEmpty, "\(item): pictures that should have been recorded are not: \(missing)")
            #expect(expected.count == 75 && truth.timestamps.count == 75, "\(item): \(expected.count) pictures sent, \(truth.timestamps.count) timestamps relayed")
            if !isH265 {
                // The recording's times go on across restarts and jumps back; a jump forward
                // within 10 s is time that passed and stays.
                let times = try videoPackets(recording).compactMap(\.time)
                let span = (times.last ?? 0) - (times.first ?? 0)
                #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(item): times go back: \(times)")
                if case .timestampJump(let by) = item.impairment, by > 0 {
                    #expect(abs(span - 7.96) < 0.01, "\(item): the last picture \(span) s after the first")
                } else {
                    #expect(span <= 2.97, "\(item): the last picture \(span) s after the first")
                }
            }
            print("RTP impaired \(item): relay dropped \(truth.dropped.count), duplicated \(truth.duplicated), reordered \(truth.reordered), "
                  + "garbage \(truth.garbage), restarts \(truth.restarts), jitter \(String(format: "%.3f", truth.jitterSeconds * 1000)) ms; "
                  + "receiver lost \(counts["lost"] ?? -1), duplicate \(counts["duplicate"] ?? -1), reordered \(counts["reordered"] ?? -1), "
                  + "malformed \(counts["malformed_packets"] ?? -1), resets \(counts["resets"] ?? -1), jitter \(String(format: "%.3f", jitter * 1000)) ms; "
                  + "\(got.count)/\(expected.count) pictures recorded, \(required.count) required")
        }

        /// `reel play stream.sdp` through a sender restart and timestamp jumps (back, and an
        /// hour forward): playback goes on in real time, and every intact picture is shown
        /// once, none dropped, the tapped frames bit-exact.
        @Test(.timeLimit(.minutes(2)), arguments: [ImpairmentRelay.Impairment.ssrcChange, .timestampJump(-900_000), .timestampJump(324_000_000)])
        func thePlayerGoesOnThroughRestartsAndJumps(_ impairment: ImpairmentRelay.Impairment) throws {
            let directory = try Paths.temporaryDirectory()
            let sent = try RTPStreams.sent("zerolatency")
            let port = try RTPStreams.freePortPair()
            let relay = try ImpairmentRelay(to: port, impairment: impairment)
            let sdp = try RTPStreams.writeSDP(for: sent, to: "rtp://127.0.0.1:\(port)", in: directory)
            let tapped = directory.appendingPathComponent("tap.y4m").path
            let player = try BackgroundProcess(Paths.reel, ["play", sdp, "--headless", "--stats", "--timeout", "2", "--tap", "y4m:\(tapped)"],
                                               outputPath: directory.appendingPathComponent("report.json").path,
                                               errorPath: directory.appendingPathComponent("err").path)
            try RTPStreams.waitUntilBound(port)
            let started = Date()
            #expect(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", sent, "-c", "copy", "-f", "rtp",
                                                 "rtp://127.0.0.1:\(relay.input.port)"]).status == 0)
            player.waitForExit(within: max(0, 30 - Date().timeIntervalSince(started)))
            let seconds = Date().timeIntervalSince(started)
            let truth = relay.stop()
            #expect(!player.isRunning && player.exitStatus == 0, "the player is still running or failed after \(seconds) s")
            let report = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("report.json"))) as? [String: Any]
            let statistics = report?["statistics"] as? [String: Any] ?? [:]
            let required = try Self.intactPictures(sent: sent, truth: truth)
            let tappedHashes = try RTPStreams.frameHashes(tapped), sentHashes = try RTPStreams.frameHashes(sent)
            #expect(statistics["frames_shown"] as? Int == required.count && statistics["frames_dropped"] as? Int == 0, "\(statistics)")
            #expect(tappedHashes == required.sorted().map { sentHashes[$0] }, "the tap holds \(tappedHashes.count) frames, \(required.count) intact")
            print("reel play stream.sdp through \(impairment): \(statistics["frames_shown"] ?? "?") frames shown of \(required.count) intact, "
                  + "\(statistics["frames_dropped"] ?? "?") dropped, ended \(String(format: "%.1f", seconds)) s after the sender started")
        }

        /// The pictures (by index, in sending order, which is display order for a stream
        /// without B-frames) that a receiver must deliver: all but those from each damaged
        /// picture up to the next keyframe.
        static func intactPictures(sent: String, truth: ImpairmentRelay.Truth) throws -> Set<Int> {
            let keyframes = try videoPackets(sent).enumerated().filter(\.element.isKeyframe).map(\.offset)
            var intact = Set(truth.timestamps.indices)
            for (index, timestamp) in truth.timestamps.enumerated() where truth.damagedTimestamps.contains(timestamp) {
                let next = keyframes.first { $0 > index } ?? truth.timestamps.count
                intact.subtract(index..<next)
            }
            return intact
        }
    }
}
