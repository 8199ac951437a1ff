import Foundation
import Testing

extension PlaybackTests {
    /// ffmpeg sends (`-f rtp -sdp_file`), `reel rtp receive` records, and the recording
    /// decodes to the frames ffmpeg decodes from the file it sent.
    @Suite(.serialized) struct FFmpegSenderTests {
        struct Case: CustomStringConvertible, Sendable {
            var name: String
            var encoder: [String]
            var container = "ts"
            var sender: [String] = []
            var scheme = "rtp"
            var recordExtension = "h264"
            var host = "127.0.0.1"
            var description: String { name }
        }

        static let key = "PS1uQCVeeCFCanVmcjkpPywjNWhcYD0mXXtxaVBR"

        static let cases: [Case] = [
            // Slices in every picture and STAP-A for the parameter sets and SEI.
            Case(name: "zerolatency", encoder: ["-c:v", "libx264", "-tune", "zerolatency", "-g", "25"]),
            // Parameter sets only in the SDP.
            Case(name: "global-header", encoder: ["-c:v", "libx264", "-flags", "+global_header", "-g", "25"], container: "mp4"),
            // Timestamps go back and forth.
            Case(name: "b-frames", encoder: ["-c:v", "libx264", "-bf", "3", "-g", "25"]),
            Case(name: "h265", encoder: ["-c:v", "libx265", "-x265-params", "log-level=error:keyint=25", "-g", "25"], recordExtension: "h265"),
            // Sequence numbers wrap within the first second.
            Case(name: "seq-65500", encoder: ["-c:v", "libx264", "-g", "25"], sender: ["-seq", "65500"]),
            Case(name: "srtp-80", encoder: ["-c:v", "libx264", "-tune", "zerolatency", "-g", "25"],
                 sender: ["-srtp_out_suite", "AES_CM_128_HMAC_SHA1_80", "-srtp_out_params", key], scheme: "srtp"),
            Case(name: "srtp-32", encoder: ["-c:v", "libx264", "-g", "25"],
                 sender: ["-srtp_out_suite", "AES_CM_128_HMAC_SHA1_32", "-srtp_out_params", key], scheme: "srtp"),
            // A multicast group (TTL 1, looped back to this host): the receiver joins it.
            Case(name: "multicast", encoder: ["-c:v", "libx264", "-g", "25"], host: "239.255.77.\(Int.random(in: 1...254))"),
        ]

        /// The cases two at a time, as the impairment matrix runs (real-time streams that
        /// mostly wait: 42 s one after another).
        static let pairs: [[Case]] = Threads.inPairs(cases)

        @Test(arguments: pairs)
        func theRecordingDecodesToTheFramesSent(_ pair: [Case]) throws {
            let runs = try Threads.runConcurrently(pair, Self.send)
            for (item, run) in zip(pair, runs) { try Self.check(item, run) }
        }

        struct Run: @unchecked Sendable {
            var sent: String
            var sending: ProcessResult
            var report: [String: Any]
            var recording: String
        }

        static func send(_ item: Case) throws -> Run {
            let directory = try Paths.temporaryDirectory()
            let sent = try RTPStreams.encoded(item.name, item.encoder, container: item.container)
            let port = try RTPStreams.freePortPair()
            let url = "\(item.scheme)://\(item.host):\(port)" + (item.host.hasPrefix("239.") ? "?ttl=1" : "")
            let sdp = try RTPStreams.writeSDP(for: sent, to: url, sender: item.sender, in: directory)
            let recording = directory.appendingPathComponent("got.\(item.recordExtension)").path
            // With --stats: its live line says, if it does not stop, whether packets still come.
            let receiver = try RTPStreams.Receiver(["--sdp", sdp, "--record", recording, "--idle-timeout", "1.5", "--stats"], directory: directory)
            try RTPStreams.waitUntilBound(port)
            let sending = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", sent, "-c", "copy"] + item.sender + ["-f", "rtp", url])
            return Run(sent: sent, sending: sending, report: try receiver.report(), recording: recording)
        }

        static func check(_ item: Case, _ run: Run) throws {
            #expect(run.sending.status == 0, "\(item): \(run.sending.stderr)")
            let counts = RTPStreams.packetCounts(run.report)
            #expect(counts["lost"] == 0 && counts["duplicate"] == 0 && counts["corrupted_access_units"] == 0, "\(item): \(counts)")
            if item.scheme == "srtp" { #expect(counts["authentication_failures"] == 0 && counts["received"] ?? 0 > 100, "\(item): \(counts)") }
            let expected = try RTPStreams.frameHashes(run.sent)
            let got = try RTPStreams.frameHashes(run.recording)
            #expect(expected.count == 75, "\(item): \(expected.count) frames sent")
            #expect(got.elementsEqual(expected), "\(item): \(got.count) frames recorded, \(expected.count) sent, \(zip(got, expected).filter { $0 != $1 }.count) differ")
            print("RTP receive \(item.name): \(got.count)/\(expected.count) frames identical, \(counts["received"] ?? 0) packets")
        }

        @Test func aWrongSRTPKeyIsCountedAndReported() throws {
            let directory = try Paths.temporaryDirectory()
            let item = Self.cases.first { $0.name == "srtp-80" }!
            let sent = try RTPStreams.encoded(item.name, item.encoder, container: item.container)
            let port = try RTPStreams.freePortPair()
            let sdp = try RTPStreams.writeSDP(for: sent, to: "srtp://127.0.0.1:\(port)", sender: item.sender, in: directory)
            let wrongKey = Data((0..<30).map { UInt8($0) }).base64EncodedString()
            let receiver = try BackgroundProcess(Paths.reel, ["rtp", "receive", "--sdp", sdp, "--srtp-key", wrongKey, "--duration", "2.5"],
                                                 outputPath: directory.appendingPathComponent("report.json").path,
                                                 errorPath: directory.appendingPathComponent("err").path)
            try RTPStreams.waitUntilBound(port)
            _ = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", sent, "-c", "copy", "-t", "1"] + item.sender + ["-f", "rtp", "srtp://127.0.0.1:\(port)"])
            for _ in 0..<200 where receiver.isRunning { Thread.sleep(forTimeInterval: 0.05) }
            #expect(receiver.exitStatus == 1)
            let errors = try String(contentsOfFile: directory.appendingPathComponent("err").path, encoding: .utf8)
            #expect(errors.contains("failed SRTP authentication"), "\(errors)")
            let report = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("report.json"))) as? [String: Any]
            let counts = RTPStreams.packetCounts(report ?? [:])
            #expect(counts["authentication_failures"] ?? 0 > 20 && counts["received"] == 0, "\(counts)")
        }
    }
}
