import Foundation
import ReelCore
import Testing

extension PlaybackTests {
    /// `reel play stream.sdp`, `reel rtp receive` with MP4 recording and bad input, and
    /// Reel's own sender (`reel encode -o rtp://`) received by Reel.
    @Suite(.serialized) struct RTPCommandTests {
        /// Every frame sent is shown, and the frame tap gets each one as it is shown, as from a file.
        @Test func playShowsEveryFrameOfTheStreamAndTapsIt() throws {
            let directory = try Paths.temporaryDirectory()
            let sent = try RTPStreams.sent("b-frames")
            let port = try RTPStreams.freePortPair()
            let sdp = try RTPStreams.writeSDP(for: sent, to: "rtp://127.0.0.1:\(port)", in: directory)
            let snapshot = directory.appendingPathComponent("snap.png").path
            let tapped = directory.appendingPathComponent("tap.y4m").path
            let player = try BackgroundProcess(Paths.reel, ["play", sdp, "--headless", "--stats", "--timeout", "2", "--snapshot", "1.5:\(snapshot)",
                                                            "--tap", "y4m:\(tapped)"],
                                               outputPath: directory.appendingPathComponent("report.json").path,
                                               errorPath: directory.appendingPathComponent("err").path)
            try RTPStreams.waitUntilBound(port)
            #expect(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", sent, "-c", "copy", "-f", "rtp", "rtp://127.0.0.1:\(port)"]).status == 0)
            for _ in 0..<200 where player.isRunning { Thread.sleep(forTimeInterval: 0.05) }
            #expect(player.exitStatus == 0)
            let report = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("report.json"))) as? [String: Any]
            let statistics = report?["statistics"] as? [String: Any] ?? [:]
            #expect(statistics["frames_shown"] as? Int == 75 && statistics["frames_dropped"] as? Int == 0, "\(statistics)")
            let tappedHashes = try RTPStreams.frameHashes(tapped), sentHashes = try RTPStreams.frameHashes(sent)
            #expect(tappedHashes == sentHashes, "the tap holds \(tappedHashes.count) frames; of the \(sentHashes.count) sent, the first differing is \(String(describing: zip(tappedHashes, sentHashes).enumerated().first { $0.element.0 != $0.element.1 }?.offset))")
            // The picture on screen at 1.5 s is the stream's: it matches one of the frames around
            // that time far better than any other (different frames of testsrc2 score below 20 dB).
            var best = 0.0
            for frame in 35...40 {
                let compared = try Processes.run("ffmpeg", ["-v", "info", "-nostdin", "-i", snapshot, "-i", sent, "-lavfi",
                                                            "[1:v]select=eq(n\\,\(frame)),format=rgb24[b];[0:v]format=rgb24[a];[a][b]psnr", "-frames:v", "1", "-f", "null", "-"])
                if let range = compared.stderr.range(of: "average:"), let value = Double(compared.stderr[range.upperBound...].prefix { "0123456789.".contains($0) }) {
                    best = max(best, value)
                }
            }
            #expect(best >= 28, "best PSNR \(best) dB")
            print("reel play stream.sdp: 75/75 frames shown and tapped, 0 dropped; the picture at 1.5 s matches the stream at \(String(format: "%.1f", best)) dB")
        }

        @Test func anMP4RecordingOfBFramesHoldsEveryFrameWithItsTime() throws {
            let directory = try Paths.temporaryDirectory()
            let sent = try RTPStreams.sent("b-frames")
            let port = try RTPStreams.freePortPair()
            let sdp = try RTPStreams.writeSDP(for: sent, to: "rtp://127.0.0.1:\(port)", in: directory)
            let recording = directory.appendingPathComponent("got.mp4").path
            let receiver = try RTPStreams.Receiver(["--sdp", sdp, "--record", recording, "--idle-timeout", "1.5"], directory: directory)
            try RTPStreams.waitUntilBound(port)
            #expect(try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", sent, "-c", "copy", "-f", "rtp", "rtp://127.0.0.1:\(port)"]).status == 0)
            _ = try receiver.report()
            let expected = try RTPStreams.frameHashes(sent)
            let got = try RTPStreams.frameHashes(recording)
            #expect(got.elementsEqual(expected), "\(got.count) frames in the MP4, \(expected.count) sent")
            // Presentation times: 25 fps from 0, in display order.
            let probe = try Processes.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=pts_time", "-of", "csv=p=0", recording])
            let times = probe.stdout.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
            #expect(times.count == 75 && zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.04) < 0.001 }, "\(times.prefix(8))")
        }

        @Test func reelsOwnSenderIsReceived() throws {
            let directory = try Paths.temporaryDirectory()
            let port = try RTPStreams.freePortPair()
            let sdp = directory.appendingPathComponent("reel.sdp").path
            let arguments = ["encode", "--camera", "640x360@25", "--codec", "h265", "--bitrate", "1M", "--gop", "25", "-o", "rtp://127.0.0.1:\(port)", "--sdp", sdp]
            #expect(try Processes.run(Paths.reel, arguments + ["--duration", "0.1"]).status == 0)
            let recording = directory.appendingPathComponent("got.h265").path
            let receiver = try RTPStreams.Receiver(["--sdp", sdp, "--record", recording, "--stats", "--idle-timeout", "30"], directory: directory)
            try RTPStreams.waitUntilBound(port)
            let sender = try Processes.run(Paths.reel, arguments + ["--duration", "3", "--stats"], timeout: 60)
            #expect(sender.status == 0, "\(sender.stderr)")
            // The camera runs in real time: on a busy machine x265 encodes fewer than its 75
            // frames (the rest are dropped before the encoder), and the frames in its
            // look-ahead come out seconds after the others; each sample sent must arrive.
            let report = try JSONSerialization.jsonObject(with: Data(sender.stdout.utf8)) as? [String: Any]
            let sent = try #require(report?["samplesOut"] as? Int, "\(sender.stdout)")
            let packets = try #require(report?["packetsSent"] as? Int, "\(sender.stdout)")
            let counts = RTPStreams.packetCounts(try receiver.report(afterReceiving: packets))
            #expect(sent >= 10 && counts["lost"] == 0 && counts["access_units"] == sent, "\(sent) sent: \(counts)")
            let decoded = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", recording, "-f", "null", "-"])
            #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(decoded.stderr)")
        }

        @Test(arguments: [
            ("missing.sdp", "cannot open"),
            ("empty", "no video stream"),
            ("vp8", "neither H264 nor H265"),
            ("savp-without-key", "no a=crypto"),
        ])
        func unusableSessionDescriptionsFailInOneLine(_ item: (String, String)) throws {
            let directory = try Paths.temporaryDirectory()
            let path = directory.appendingPathComponent("\(item.0).sdp").path
            switch item.0 {
            case "empty": try "v=0\n".write(toFile: path, atomically: true, encoding: .utf8)
            case "vp8": try "v=0\nc=IN IP4 127.0.0.1\nm=video 5004 RTP/AVP 96\na=rtpmap:96 VP8/90000\n".write(toFile: path, atomically: true, encoding: .utf8)
            case "savp-without-key": try "v=0\nc=IN IP4 127.0.0.1\nm=video 5004 RTP/SAVP 96\na=rtpmap:96 H264/90000\n".write(toFile: path, atomically: true, encoding: .utf8)
            default: break
            }
            let result = try reel("rtp", "receive", "--sdp", item.0 == "missing.sdp" ? "/nonexistent/missing.sdp" : path, "--duration", "1", timeout: 20)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("reel: ") && result.stderr.contains(item.1) && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }

        @Test func silenceEndsWithAClearError() throws {
            let directory = try Paths.temporaryDirectory()
            let port = try RTPStreams.freePortPair()
            let sdp = try RTPStreams.writeSDP(for: try RTPStreams.sent("zerolatency"), to: "rtp://127.0.0.1:\(port)", in: directory)
            let result = try reel("rtp", "receive", "--sdp", sdp, "--timeout", "1", timeout: 20)
            #expect(result.status == 1 && result.stderr.contains("no RTP packet arrived"), "\(result.stderr)")
            let played = try reel("play", sdp, "--headless", "--timeout", "1", timeout: 20)
            #expect(played.status == 1 && played.stderr.contains("no keyframe arrived"), "\(played.stderr)")
        }

        @Test func aPortInUseOrAnUnknownAddressFailsInOneLine() throws {
            let directory = try Paths.temporaryDirectory()
            let taken = try UDPSocket()
            let sdp = try RTPStreams.writeSDP(for: try RTPStreams.sent("zerolatency"), to: "rtp://127.0.0.1:\(taken.port)", in: directory)
            let busy = try reel("rtp", "receive", "--sdp", sdp, "--timeout", "1", timeout: 20)
            #expect(busy.status == 1 && busy.stderr.contains("cannot bind UDP port"), "\(busy.stderr)")
            let unknown = try reel("rtp", "receive", "--sdp", sdp, "--listen", "no-such-host.invalid", "--timeout", "1", timeout: 20)
            #expect(unknown.status == 1 && unknown.stderr.contains("cannot resolve no-such-host.invalid"), "\(unknown.stderr)")
            #expect(busy.stderr.split(separator: "\n").count == 1 && unknown.stderr.split(separator: "\n").count == 1)
        }

        @Test func garbageDatagramsAreCountedNotFatal() throws {
            let directory = try Paths.temporaryDirectory()
            let port = try RTPStreams.freePortPair()
            let sdp = try RTPStreams.writeSDP(for: try RTPStreams.sent("zerolatency"), to: "rtp://127.0.0.1:\(port)", in: directory)
            let receiver = try RTPStreams.Receiver(["--sdp", sdp, "--duration", "2"], directory: directory)
            try RTPStreams.waitUntilBound(port)
            let socket = try UDPSocket()
            var generator = SystemRandomNumberGenerator()
            for index in 0..<500 {
                var bytes = (0..<Int.random(in: 0...1500, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                if index % 2 == 0 {
                    // A valid header in sequence before a garbage payload.
                    bytes = RTPHeader(marker: index % 8 == 0, payloadType: 96, sequenceNumber: UInt16(index / 2), timestamp: UInt32(index / 8 * 3600), ssrc: 77).bytes + bytes
                }
                socket.send(bytes, to: UDPSocket.loopback(port: port))
                usleep(500)
            }
            let counts = RTPStreams.packetCounts(try receiver.report())
            #expect(counts["received"] == 250 && counts["malformed_payloads"] ?? 0 > 0 && counts["malformed_packets"] ?? 0 > 0, "\(counts)")
        }

        /// Datagrams sent as fast as one thread can while the receiver cannot run (suspended,
        /// as on a machine busy with other work): the socket's buffer fills, the rest is
        /// dropped. Every datagram is either read or in the kernel's drop count, even those
        /// dropped after the last one queued; only those the kernel dropped before any socket
        /// (its backlog, /proc/net/softnet_stat) may be missing.
        @Test func aFloodIsEitherReadOrCountedAsDroppedByTheKernel() throws {
            let (receiver, port) = try Self.listeningReceiver()
            let socket = try UDPSocket()
            let payload = [UInt8](repeating: 0x41, count: 188)
            var sent = 0
            let backlogDropsBefore = Self.backlogDrops()
            receiver.process.suspend()
            for index in 0..<40_000 {
                let header = RTPHeader(marker: index % 10 == 9, payloadType: 96, sequenceNumber: UInt16(truncatingIfNeeded: index),
                                       timestamp: UInt32(index / 10 * 3000), ssrc: 9)
                if socket.send(header.bytes + payload, to: UDPSocket.loopback(port: port)) { sent += 1 }
            }
            receiver.process.resume()
            let statistics = try receiver.report()["statistics"] as? [String: Any] ?? [:]
            let read = (statistics["bytes_received"] as? Int ?? 0) / (RTPHeader.size + payload.count)
            let dropped = statistics["dropped_while_busy"] as? Int ?? -1
            let beforeAnySocket = Self.backlogDrops() - backlogDropsBefore
            #expect(read > 0 && dropped > 0 && read + dropped <= sent && read + dropped >= sent - beforeAnySocket,
                    "\(sent) sent, \(read) read, \(dropped) dropped by the kernel, \(beforeAnySocket) dropped before any socket")
            print("RTP flood: \(sent) datagrams sent, \(read) read, \(dropped) dropped by the kernel")
        }

        /// Packets the kernel dropped on their way to any socket, all CPUs.
        static func backlogDrops() -> Int {
            let table = (try? String(contentsOfFile: "/proc/net/softnet_stat", encoding: .utf8)) ?? ""
            return table.split(separator: "\n").reduce(0) { total, line in
                total + (line.split(separator: " ").dropFirst().first.flatMap { Int($0, radix: 16) } ?? 0)
            }
        }

        /// `reel rtp receive` listening on loopback for H.264 at payload type 96 (packets the
        /// test makes itself), and the port to send them to.
        static func listeningReceiver() throws -> (receiver: RTPStreams.Receiver, port: Int) {
            let directory = try Paths.temporaryDirectory()
            let port = try RTPStreams.freePortPair()
            let sdp = directory.appendingPathComponent("minimal.sdp").path
            try "v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=video \(port) RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\n"
                .write(toFile: sdp, atomically: true, encoding: .utf8)
            let receiver = try RTPStreams.Receiver(["--sdp", sdp, "--idle-timeout", "1"], directory: directory)
            try RTPStreams.waitUntilBound(port)
            return (receiver, port)
        }

        /// The receiver reads UDP in batches tens of milliseconds apart; its interarrival
        /// jitter (RFC 3550 6.4.1) still matches the one computed from the send times, because
        /// each datagram carries the kernel's arrival time. Every other packet's timestamp is
        /// 2 ms ahead, so the true jitter tends to 2 ms; arrival times taken when a batch is
        /// read make it over 20 ms. (The margin allows for the sender being preempted between
        /// taking its time and sending on a loaded machine.)
        @Test func jitterIsMeasuredFromEachDatagramsArrivalTime() throws {
            let (receiver, port) = try Self.listeningReceiver()
            let socket = try UDPSocket()
            let start = monotonicSeconds()
            var expected = 0.0, previousTransit: Double?
            for index in 0..<120 {
                let timestamp = UInt32(index * 1800 + (index % 2) * 180)
                let packet = RTPHeader(marker: true, payloadType: 96, sequenceNumber: UInt16(index), timestamp: timestamp, ssrc: 5).bytes + [0x65, 0x88, 0x84]
                let sentAt = monotonicSeconds()
                socket.send(packet, to: UDPSocket.loopback(port: port))
                let transit = sentAt - Double(timestamp) / 90_000
                if let previousTransit { expected += (abs(transit - previousTransit) - expected) / 16 }
                previousTransit = transit
                let next = start + Double(index + 1) * 0.02
                while monotonicSeconds() < next { usleep(UInt32(max(0, next - monotonicSeconds()) * 1e6)) }
            }
            let statistics = try receiver.report()["statistics"] as? [String: Any] ?? [:]
            let measured = (statistics["packets"] as? [String: Any])?["jitter_seconds"] as? Double ?? -1
            #expect(abs(measured - expected) < 0.002, "reel \(measured) s, from the send times \(expected) s")
            print("RTP jitter: reel \(String(format: "%.2f", measured * 1000)) ms, from the send times \(String(format: "%.2f", expected * 1000)) ms")
        }
    }
}
