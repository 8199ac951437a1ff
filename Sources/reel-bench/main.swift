import Foundation
import Reel

// reel-bench pixels [--runs N] [--frames N]: Reel's pixel conversions against their peers.
let arguments = CommandLine.arguments.dropFirst()
// reel-bench pano-remap THREADS [PROJECTION]: one figure, for scripts that alternate with a peer.
if arguments.first == "pano-remap", let threads = arguments.dropFirst().first.flatMap({ Int($0) }) {
    var pano = PanoramaBenchmark()
    pano.runs = 3
    pano.projection = arguments.dropFirst(2).first.flatMap(PanoramaProjection.init(name:)) ?? .equirectangular
    print(String(format: "%.1f", try pano.remapFramesPerSecond(threads: threads, interpolation: .bilinear)))
    exit(0)
}
if arguments.first == "rtp-depacketize", let path = arguments.dropFirst().first {
    let passes = arguments.firstIndex(of: "--passes").flatMap { arguments.dropFirst($0 - arguments.startIndex + 1).first }.flatMap { Int($0) } ?? 1
    let figures = try RTPBenchmark.run(path: path, codec: arguments.contains("--h265") ? .h265 : .h264, passes: passes)
    print("\(figures.packets) packets \(figures.accessUnits) access-units \(Int(figures.packetsPerSecond)) packets/s")
    exit(0)
}
/// Runs one of the long-running workloads: its line on success, exit 1 with the error.
func runWorkload(_ name: String, _ body: () async throws -> String) async -> Never {
    do {
        print("\(name): " + (try await body()))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
        exit(1)
    }
}
// reel-bench player-churn FILE SECONDS [SEED]: the soak's restless user (scripts/soak.sh).
if arguments.first == "player-churn", arguments.count >= 3, let seconds = Double(arguments.dropFirst(2).first!) {
    let seed = arguments.dropFirst(3).first.flatMap { UInt64($0) } ?? 1
    await runWorkload("player-churn") {
        let calls = try await PlayerChurn(seconds: seconds, seed: seed).run(arguments.dropFirst().first!)
        return calls.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }
}
// reel-bench player-cycles FILE N: LeakSanitizer's open/play/seek/stop loop (scripts/sanitize.sh).
if arguments.first == "player-cycles", arguments.count >= 3, let cycles = Int(arguments.dropFirst(2).first!) {
    await runWorkload("player-cycles") {
        try await PlayerCycles.run(arguments.dropFirst().first!, cycles: cycles)
        return "\(cycles) cycles"
    }
}
if arguments.first == "vap" {
    var vap = VAPBenchmark()
    if let index = arguments.firstIndex(of: "--runs"), let value = arguments.dropFirst(index - arguments.startIndex + 1).first.flatMap({ Int($0) }) { vap.runs = max(value, 1) }
    let figures = try vap.run()
    print("VAP compositing, 1920x1080 output (alpha at half size), one thread, medians of \(vap.runs) alternating runs of \(vap.framesPerRun) frames")
    print(String(format: "reel %.1f fps, ffmpeg crop+scale+alphamerge %.1f fps, ratio %.2f (target ≥ 2); mean difference %.3f levels",
                 figures.ours, figures.ffmpeg, figures.ratio, figures.meanDifference))
    exit(0)
}
guard arguments.first == "pixels" || arguments.first == "pano" else {
    FileHandle.standardError.write(Data("usage: reel-bench pixels|pano|vap [--runs N] [--frames N] [--projection NAME] [--maps-only] [--interactive-only] | player-churn FILE SECONDS [SEED] | player-cycles FILE N\n".utf8))
    exit(2)
}
if arguments.first == "pano" {
    var pano = PanoramaBenchmark()
    if let index = arguments.firstIndex(of: "--projection"),
       let projection = arguments.dropFirst(index - arguments.startIndex + 1).first.flatMap(PanoramaProjection.init(name:)) {
        pano.projection = projection
    }
    if let index = arguments.firstIndex(of: "--runs"), let value = arguments.dropFirst(index - arguments.startIndex + 1).first.flatMap({ Int($0) }) { pano.runs = max(value, 1) }
    for interpolation in PanoramaInterpolation.allCases {
        for threads in [1, 2] {
            // --interactive-only: for profiling the maps a moving view uses.
            print(String(format: "map build 1280x720 from %@ %@, %d thread(s): exact %.2f ms, interactive %.2f ms",
                         pano.projection.name as NSString, interpolation.rawValue as NSString, threads,
                         arguments.contains("--interactive-only") ? .nan : try pano.mapBuildMilliseconds(interpolation: interpolation, threads: threads),
                         try pano.mapBuildMilliseconds(interpolation: interpolation, precision: .interactive, threads: threads)))
        }
        for threads in [1, 2] where !arguments.contains("--maps-only") {
            print(String(format: "remap %@ %dx%d -> 1280x720 %@, %d thread(s): %.1f fps", pano.projection.name as NSString,
                         pano.sourceWidth, pano.sourceHeight, interpolation.rawValue as NSString, threads,
                         try pano.remapFramesPerSecond(threads: threads, interpolation: interpolation)))
        }
    }
    exit(0)
}
var benchmark = PixelBenchmark()
if let index = arguments.firstIndex(of: "--runs"), let value = arguments.dropFirst(index - arguments.startIndex + 1).first.flatMap({ Int($0) }) { benchmark.runs = max(value, 1) }
if let index = arguments.firstIndex(of: "--frames"), let value = arguments.dropFirst(index - arguments.startIndex + 1).first.flatMap({ Int($0) }) { benchmark.framesPerRun = max(value, 1) }
print("1920x1080, one thread, median of \(benchmark.runs) runs of \(benchmark.framesPerRun) frames")
print("conversion           reel            peer            ratio   target  peer")
for figure in try benchmark.run() {
    // Padded in Swift: the format's width counts bytes, and "→" takes three.
    print(String(format: "%@ %8.2f %-6@ %8.2f %-6@ %6.2f   %-6@  %@", figure.name.padding(toLength: 20, withPad: " ", startingAt: 0) as NSString, figure.ours, figure.unit as NSString,
                 figure.peer, figure.unit as NSString, figure.ratio, figure.target as NSString, figure.peerName as NSString))
}
