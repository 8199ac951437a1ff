import Foundation
import Reel
import Testing

extension PlaybackTests {
    /// RTCP sender reports from `reel encode -o rtp://…`, read off the wire by tshark and by
    /// Reel's receiver: what they count, and how well their clock mapping predicts when each
    /// picture went out.
    @Suite(.serialized) struct SenderReportTests {
        private static func decodeAs(_ port: Int) -> [String] { ["udp.port==\(port),rtp", "udp.port==\(port + 1),rtcp"] }

        /// RTP packets as tshark saw them: capture time, SSRC, timestamp, payload octets.
        private static func mediaPackets(_ capture: PacketCapture, port: Int) throws -> [(time: Double, ssrc: String, timestamp: UInt32, payload: Int)] {
            try capture.rows(matching: "rtp", fields: ["frame.time_epoch", "rtp.ssrc", "rtp.timestamp", "udp.length"], decodeAs: decodeAs(port))
                .compactMap { row in
                    guard row.count == 4, let time = Double(row[0]), let timestamp = UInt32(row[2]), let length = Int(row[3]) else { return nil }
                    return (time, row[1], timestamp, length - 8 - 12)
                }
        }

        @Test(.timeLimit(.minutes(2)), arguments: ["file", "camera"])
        func tsharkReadsReportsThatCountWhatWasSentAndMapTheClock(_ input: String) throws {
            let directory = try Paths.temporaryDirectory()
            let port = try RTPStreams.freePortPair()
            let capture = try PacketCapture(udpPorts: [port, port + 1], in: directory)
            let file = try Fixtures.made("testsrc2-320x240-25-6s.y4m", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=6", "-pix_fmt", "yuv420p"])
            let source = input == "file" ? ["-i", file, "--no-reordering"]
                                         : ["--camera", "320x240@25", "--realtime", "--duration", "6"]
            let sent = try Processes.run(Paths.reel, ["encode"] + source + ["--codec", "h264", "-o", "rtp://127.0.0.1:\(port)"], timeout: 60)
            try capture.waitFor(3, matching: "rtcp.pt==200", decodeAs: Self.decodeAs(port))
            capture.stop()
            #expect(sent.status == 0, "\(sent.stderr)")

            let media = try Self.mediaPackets(capture, port: port)
            let reports = try capture.rows(matching: "rtcp.pt==200", fields: [
                "frame.time_epoch", "rtcp.senderssrc", "rtcp.timestamp.ntp.msw", "rtcp.timestamp.ntp.lsw", "rtcp.timestamp.rtp",
                "rtcp.sender.packetcount", "rtcp.sender.octetcount", "rtcp.pt", "rtcp.sdes.text"], decodeAs: Self.decodeAs(port))
            // One before the first packet, one after 5 s, one at the end (no BYE, as ffmpeg's
            // muxer by default: ffmpeg's demuxer ends at a BYE and drops what it has not read).
            #expect(reports.count == 3, "\(reports)")
            #expect(reports.allSatisfy { $0.count > 7 && $0[7] == "200,202" })
            let ssrcs = Set(media.map(\.ssrc))
            #expect(ssrcs.count == 1 && media.count > 100)
            var clock: SenderClock?
            var largestReportError = 0.0
            for report in reports {
                guard report.count == 9, let seen = Double(report[0]), let msw = UInt64(report[2]), let lsw = UInt64(report[3]),
                      let rtp = UInt32(report[4]), let packets = Int(report[5]), let octets = Int(report[6]) else {
                    Issue.record("an unreadable report \(report)")
                    continue
                }
                #expect(ssrcs.contains(report[1]) && report[8].hasPrefix("reel@"))
                // What the report counts is what went out before it (loopback loses nothing).
                let before = media.filter { $0.time <= seen }
                #expect(packets == before.count, "packet count \(packets), \(before.count) sent before it")
                #expect(octets == before.reduce(0) { $0 + $1.payload }, "octet count \(octets)")
                let ntp = NTPTimestamp(value: msw << 32 | lsw)
                largestReportError = max(largestReportError, abs(ntp.unixSeconds - seen))
                // Each report agrees with the first one's mapping (one clock, no drift).
                if let clock { #expect(abs(clock.unixSeconds(ofRTPTimestamp: rtp) - ntp.unixSeconds) < 0.001) }
                clock = clock ?? SenderClock(ntpTimestamp: ntp, rtpTimestamp: rtp, clockRate: 90_000)
            }
            #expect(largestReportError < 0.005, "a report's wall clock is \(largestReportError * 1000) ms from its capture time")

            // Each picture's first packet against the time the first report's mapping gives it.
            guard let clock else { return }
            var firstPackets: [UInt32: Double] = [:]
            for packet in media where firstPackets[packet.timestamp] == nil { firstPackets[packet.timestamp] = packet.time }
            let lateness = firstPackets.map { $0.value - clock.unixSeconds(ofRTPTimestamp: $0.key) }.sorted()
            let median = lateness[lateness.count / 2]
            let worst = lateness.map(abs).max() ?? 0
            print("RTCP SR (\(input)): \(reports.count) reports; \(lateness.count) pictures on the wire \(String(format: "%.3f", median * 1000)) ms "
                  + "(median), \(String(format: "%.3f", worst * 1000)) ms (worst) after the time the reports' mapping gives them")
            if input == "file" {
                // A file is sent on the media clock the reports give: the mapping predicts when
                // each picture goes out. Within 5 ms: a wrong mapping is off by a frame (40 ms)
                // or drifts, while a sleeping sender on a loaded two-core machine wakes up to
                // a millisecond or so late (1.18 ms median in a flake hunt, 0.28 ms idle).
                #expect(abs(median) < 0.005)
            } else {
                // The camera's pictures go out after their encoding: never before their capture
                // time, soon after it.
                #expect(lateness.first.map { $0 > -0.0005 } == true && median < 0.05)
            }
        }

        /// libavformat's RTP demuxer, which ffmpeg and ffprobe read with, takes the same clock
        /// from the reports: the capture time it gives each picture (its producer reference
        /// time, through ``Packet/captureTime``) is the one the reports on the wire give, and a
        /// paced file's pictures go out at that time.
        @Test(.timeLimit(.minutes(2))) func ffmpegsRTPDemuxerReadsTheSameClock() throws {
            let directory = try Paths.temporaryDirectory()
            let port = try RTPStreams.freePortPair()
            let sdp = directory.appendingPathComponent("stream.sdp").path
            try ["v=0", "o=- 0 0 IN IP4 127.0.0.1", "s=Reel", "c=IN IP4 127.0.0.1", "t=0 0", "m=video \(port) RTP/AVP 96",
                 "a=rtpmap:96 H264/90000", "a=fmtp:96 packetization-mode=1", ""].joined(separator: "\r\n").write(toFile: sdp, atomically: true, encoding: .utf8)
            let capture = try PacketCapture(udpPorts: [port, port + 1], in: directory)
            // libavformat reads on a thread of its own, until every picture is in or its read times out.
            let done = ConditionLock()
            nonisolated(unsafe) var captureTimes: [Double] = [], finished = false
            Thread {
                defer { done.withLock { finished = true } }
                guard let demuxer = try? Demuxer(url: sdp, options: DemuxOptions(timeout: 3, formatOptions: ["protocol_whitelist": "file,udp,rtp"])) else { return }
                while let packet = try? demuxer.readPacket() {
                    if let time = packet.captureTime { done.withLock { captureTimes.append(time) } }
                    if done.withLock({ captureTimes.count }) == 150 { return }
                }
            }.start()
            try RTPStreams.waitUntilBound(port)
            let file = try Fixtures.made("testsrc2-320x240-25-6s.y4m", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=6", "-pix_fmt", "yuv420p"])
            let sent = try Processes.run(Paths.reel, ["encode", "-i", file, "--no-reordering", "--codec", "h264", "-o", "rtp://127.0.0.1:\(port)"], timeout: 60)
            #expect(sent.status == 0, "\(sent.stderr)")
            try capture.waitFor(3, matching: "rtcp.pt==200", decodeAs: Self.decodeAs(port))
            capture.stop()
            for _ in 0..<200 where !done.withLock({ finished }) { Thread.sleep(forTimeInterval: 0.05) }
            let times = done.withLock { captureTimes }

            let report = try #require(try capture.rows(matching: "rtcp.pt==200", fields: ["rtcp.timestamp.ntp.msw", "rtcp.timestamp.ntp.lsw", "rtcp.timestamp.rtp"],
                                                       decodeAs: Self.decodeAs(port)).first)
            let msw = try #require(UInt64(report[0])), lsw = try #require(UInt64(report[1])), rtp = try #require(UInt32(report[2]))
            let clock = SenderClock(ntpTimestamp: NTPTimestamp(value: msw << 32 | lsw), rtpTimestamp: rtp, clockRate: 90_000)
            var wire: [UInt32: Double] = [:]
            for packet in try Self.mediaPackets(capture, port: port) where wire[packet.timestamp] == nil { wire[packet.timestamp] = packet.time }
            let pictures = wire.map { (mapped: clock.unixSeconds(ofRTPTimestamp: $0.key), sent: $0.value) }
            // Each time libavformat gives against the picture the reports on the wire put nearest.
            var disagreement = 0.0, lateness: [Double] = []
            for time in times {
                guard let picture = pictures.min(by: { abs($0.mapped - time) < abs($1.mapped - time) }) else { continue }
                disagreement = max(disagreement, abs(picture.mapped - time))
                lateness.append(picture.sent - time)
            }
            lateness.sort()
            let median = lateness.isEmpty ? .infinity : lateness[lateness.count / 2]
            print("RTCP SR through libavformat's RTP demuxer: \(times.count) of \(pictures.count) pictures with a capture time, "
                  + "\(String(format: "%.3f", disagreement * 1000)) ms from the reports' mapping at most, on the wire \(String(format: "%.3f", median * 1000)) ms after it (median)")
            #expect(times.count >= 145 && pictures.count == 150, "\(times.count) capture times for \(pictures.count) pictures")
            // The mapping to the millisecond; the wire within 5 ms, as for the file above (a
            // sleeping sender on a loaded machine wakes a millisecond or so late).
            #expect(disagreement < 0.001 && abs(median) < 0.005, "\(disagreement) s from the mapping at most, on the wire \(median) s after it")
        }

        /// Reel's receiver maps each access unit to its capture time with the reports.
        @Test(.timeLimit(.minutes(2))) func receivedAccessUnitsCarryTheirCaptureTime() async throws {
            let port = try RTPStreams.freePortPair()
            let description = try SessionDescription(parsing: [
                "v=0", "o=- 0 0 IN IP4 127.0.0.1", "s=Reel", "c=IN IP4 127.0.0.1", "t=0 0", "m=video \(port) RTP/AVP 96",
                "a=rtpmap:96 H264/90000", "a=fmtp:96 packetization-mode=1", "",
            ].joined(separator: "\r\n"))
            let receiver = try RTPReceiver(configuration: .init(description: description))
            let units = try await receiver.accessUnits()
            let received = ConditionLock()
            nonisolated(unsafe) var count = 0
            let consumer = Task {
                var delays: [Double] = []
                var withoutTime = 0
                for await unit in units {
                    received.withLock { count += 1 }
                    guard let captured = unit.captureTime else {
                        withoutTime += 1
                        continue
                    }
                    delays.append(Date().timeIntervalSince1970 - captured)
                }
                return (delays, withoutTime)
            }
            let status: Int32 = await withCheckedContinuation { continuation in
                Thread {
                    let result = try? Processes.run(Paths.reel, ["encode", "--camera", "320x240@25", "--realtime", "--duration", "3",
                                                                 "-o", "rtp://127.0.0.1:\(port)"], timeout: 60)
                    continuation.resume(returning: result?.status ?? -1)
                }.start()
            }
            #expect(status == 0)
            // Until every picture sent (3 s at 25 fps) is handed over, for 10 s at most.
            for _ in 0..<200 where received.withLock({ count }) < 75 { try await Task.sleep(for: .milliseconds(50)) }
            let statistics = await receiver.stop()
            await receiver.waitUntilFinished()
            let (delays, withoutTime) = await consumer.value
            // The first report comes before the first packet, so every unit has its time.
            #expect(withoutTime == 0 && delays.count == 75, "\(delays.count) units with a capture time, \(withoutTime) without")
            #expect(statistics.senderReports == 2, "\(statistics.senderReports) reports")
            let sorted = delays.sorted()
            let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            print("RTCP SR: capture to hand-over through Reel's receiver \(String(format: "%.1f", median * 1000)) ms (median) over \(delays.count) pictures")
            #expect(sorted.first.map { $0 >= 0 } == true && median < 0.1, "capture to hand-over \(median) s")
        }
    }
}
