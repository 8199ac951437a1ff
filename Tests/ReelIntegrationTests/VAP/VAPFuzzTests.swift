import Foundation
import Testing

/// libFuzzer on Reel's MP4 reader and vapc parser (Fuzz/Sources/ReelFuzzVAP) for 60
/// seconds, seeded with a small VAP file and Tencent's vapc JSON: no crash, no leak of
/// memory past 2 GB, no input slower than 10 s.
@Suite struct VAPFuzzTests {
    @Test func theMP4ReaderAndVapcParserSurviveAMinuteOfFuzzing() throws {
        let binary = Paths.packageRoot.appendingPathComponent("Fuzz/.build/release/ReelFuzzVAP").path
        if !FileManager.default.isExecutableFile(atPath: binary) {
            let build = try Processes.run("/bin/bash", [Paths.packageRoot.appendingPathComponent("scripts/fuzz.sh").path], timeout: 900)
            #expect(build.status == 0, "building the fuzzer: \(build.stderr.suffix(2000))")
        }
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = directory.appendingPathComponent("corpus"), frames = directory.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: true)
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
        // At the lowest priority, so that the timing tests running beside it keep their core.
        let result = try Processes.run("nice", ["-n", "19", binary, "-max_total_time=60", "-rss_limit_mb=2048", "-timeout=10", "-max_len=65536",
                                                "-artifact_prefix=\(directory.path)/", corpus.path],
                                       timeout: 180, environment: ["SWIFT_BACKTRACE": "enable=no"])
        let runs = result.stderr.split(separator: "\n").last { $0.hasPrefix("Done ") } ?? "no summary"
        print("ReelFuzzVAP: \(runs)")
        #expect(result.status == 0 && !result.timedOut, "libFuzzer: \(result.stderr.suffix(3000))")
        #expect(result.seconds >= 60)
        let crashes = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("crash-") || $0.hasPrefix("oom-") || $0.hasPrefix("timeout-") }
        #expect(crashes.isEmpty, "inputs that failed: \(crashes)")
    }
}
