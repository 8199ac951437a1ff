import Foundation
import Testing

/// libFuzzer on Reel's parsers (Fuzz/Sources) for 60 seconds each, one after the other,
/// seeded with real inputs: no crash, no memory past 2 GB, no input slower than 10 s.
@Suite(.serialized) struct FuzzTests {
    /// Builds the fuzzers when needed and runs `target` on `corpus` for a minute.
    static func run(_ target: String, corpus: URL, in directory: URL) throws {
        let binary = Paths.packageRoot.appendingPathComponent("Fuzz/.build/release/\(target)").path
        if !FileManager.default.isExecutableFile(atPath: binary) {
            let build = try Processes.run("/bin/bash", [Paths.packageRoot.appendingPathComponent("scripts/fuzz.sh").path], timeout: 900)
            #expect(build.status == 0, "building the fuzzer: \(build.stderr.suffix(2000))")
        }
        // At the lowest priority, so that the timing tests running beside it keep their core.
        let result = try Processes.run("nice", ["-n", "19", binary, "-max_total_time=60", "-rss_limit_mb=2048", "-timeout=10", "-max_len=65536", "-print_funcs=0",
                                                "-artifact_prefix=\(directory.path)/", corpus.path],
                                       timeout: 180, environment: ["SWIFT_BACKTRACE": "enable=no"])
        let runs = result.stderr.split(separator: "\n").last { $0.hasPrefix("Done ") } ?? "no summary"
        print("\(target): \(runs)")
        #expect(result.status == 0 && !result.timedOut, "libFuzzer: \(result.stderr.suffix(3000))")
        #expect(result.seconds >= 60)
        let crashes = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("crash-") || $0.hasPrefix("oom-") || $0.hasPrefix("timeout-") }
        #expect(crashes.isEmpty, "inputs that failed: \(crashes)")
    }

    static func emptyCorpus() throws -> (directory: URL, corpus: URL) {
        let directory = try Paths.temporaryDirectory()
        let corpus = directory.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: true)
        return (directory, corpus)
    }

    /// The MP4 reader and the vapc parser, seeded with a small VAP file and Tencent's vapc JSON.
    @Test func theMP4ReaderAndVapcParserSurviveAMinuteOfFuzzing() throws {
        let (directory, corpus) = try Self.emptyCorpus()
        defer { try? FileManager.default.removeItem(at: directory) }
        let frames = directory.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        _ = try Processes.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=32x16:r=5:d=0.6,format=rgba", frames.appendingPathComponent("%02d.png").path])
        let packed = try reel("vap", "pack", frames.appendingPathComponent("%02d.png").path, "-o", corpus.appendingPathComponent("tiny.mp4").path, "--fps", "5")
        #expect(packed.status == 0, "\(packed.stderr)")
        for name in VAPCommandTests.fixtures {
            let data = try Data(contentsOf: try Paths.sharedFixtures("vap").appendingPathComponent(name))
            if let box = MP4Patches.topLevelBoxes(data).first(where: { $0.type == "vapc" }) {
                try data[box.range.lowerBound + 8..<box.range.upperBound].write(to: corpus.appendingPathComponent("\(name).json"))
            }
        }
        try Self.run("ReelFuzzVAP", corpus: corpus, in: directory)
    }

    /// RTP, RTCP and SDP parsing, the jitter buffer and both depacketizers, seeded with the
    /// packets and SDPs ffmpeg sends for H.264 and H.265, a sender report and the inputs in
    /// Fuzz/Regressions/RTP.
    @Test func theRTPParsersAndDepacketizersSurviveAMinuteOfFuzzing() throws {
        let (directory, corpus) = try Self.emptyCorpus()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["zerolatency", "h265"] {
            let sent = try RTPStreams.sent(name)
            let (packets, sdp) = try RTPStreams.captured(sent, directory: directory)
            try Data(sdp.utf8).write(to: corpus.appendingPathComponent("\(name).sdp"))
            // Seeds of up to 16 packets, small ones so that mutations reach every path.
            for (index, run) in stride(from: 0, to: min(packets.count, 160), by: 16).enumerated() {
                var framed: [UInt8] = []
                for packet in packets[run..<min(run + 16, packets.count)] {
                    let body = [UInt8(index % 7)] + packet.prefix(600)
                    framed += [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
                }
                try Data(framed).write(to: corpus.appendingPathComponent("\(name)-\(index).rtp"))
            }
        }
        let senderReport: [UInt8] = [0x80, 200, 0, 6, 0, 0, 0, 7, 0xE9, 0, 0, 0, 0x80, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 10, 0, 0, 3, 232,
                                     0x81, 203, 0, 1, 0, 0, 0, 7]
        try Data(senderReport).write(to: corpus.appendingPathComponent("sr-bye.rtcp"))
        // Inputs that once crashed, replayed first.
        let regressions = Paths.packageRoot.appendingPathComponent("Fuzz/Regressions/RTP")
        for name in try FileManager.default.contentsOfDirectory(atPath: regressions.path) {
            try FileManager.default.copyItem(at: regressions.appendingPathComponent(name), to: corpus.appendingPathComponent(name))
        }
        try Self.run("ReelFuzzRTP", corpus: corpus, in: directory)
    }
}
