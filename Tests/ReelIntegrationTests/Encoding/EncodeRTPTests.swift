import Foundation
import Testing

extension PlaybackTests {
    /// `reel encode -o rtp://…` read by ffmpeg from the SDP Reel writes.
    @Suite(.serialized) struct EncodeRTPTests {
        @Test(arguments: ["h264", "h265"])
        func ffmpegDecodesTheStreamFromTheWrittenSDP(_ codec: String) throws {
            let directory = try Paths.temporaryDirectory()
            let sdp = directory.appendingPathComponent("stream-\(codec).sdp").path
            let port = try RTPStreams.freePortPair()
            let source = try EncodeOracle.source720p(seconds: 2)
            let arguments = ["encode", "-i", source, "--codec", codec, "--bitrate", "2M", "--gop", "30", "--mtu", "1200",
                             "-o", "rtp://127.0.0.1:\(port)", "--sdp", sdp]
            // The SDP carries the parameter sets, known once the encoder is open: a first short
            // run writes it; the same settings give the same parameter sets the second time.
            #expect(try Processes.run(Paths.reel, arguments + ["--duration", "0.1"]).status == 0)
            let written = try String(contentsOfFile: sdp, encoding: .utf8)
            #expect(written.contains("a=rtpmap:96 \(codec.uppercased())/90000"))
            #expect(written.contains(codec == "h264" ? "sprop-parameter-sets=" : "sprop-vps="))

            let decoded = directory.appendingPathComponent("rtp-\(codec).framemd5").path
            let receiver = try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-protocol_whitelist", "file,udp,rtp", "-reorder_queue_size", "0",
                                                            "-i", sdp, "-frames:v", "50", "-f", "framemd5", "-y", decoded],
                                                 errorPath: directory.appendingPathComponent("rtp-\(codec).err").path)
            defer { receiver.stop() }
            Thread.sleep(forTimeInterval: 1.5)
            // 2 s of 720p through x265 took over 60 s beside a flake hunt's two busy loops.
            let sent = try Processes.run(Paths.reel, arguments + ["--stats"], timeout: 240)
            #expect(sent.status == 0, "\(sent.stderr)")
            #expect(sent.stdout.contains("\"packetsSent\""))
            for _ in 0..<100 where receiver.isRunning { Thread.sleep(forTimeInterval: 0.1) }
            #expect(receiver.exitStatus == 0, "ffmpeg did not decode 50 frames")
            let errors = try String(contentsOfFile: directory.appendingPathComponent("rtp-\(codec).err").path, encoding: .utf8)
            #expect(errors.isEmpty, "ffmpeg: \(errors)")
            let frames = try String(contentsOfFile: decoded, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
            #expect(frames.count == 50)
            print("RTP \(codec): ffmpeg decoded \(frames.count) frames from the SDP, no error")
        }
    }
}
