import Foundation
import Reel
import Testing

/// Reel's G.711 against FFmpeg's `pcm_mulaw` and `pcm_alaw` encoders on every 16-bit sample.
@Suite struct G711AgreementTests {
    @Test(arguments: ["mulaw", "alaw"]) func everySampleIsFFmpegsCode(law: String) throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let samples = (Int(Int16.min)...Int(Int16.max)).map { Int16($0) }
        let linear = directory.appendingPathComponent("linear.raw")
        try samples.withUnsafeBytes { try Data($0).write(to: linear) }
        let encoded = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "s16le", "-ar", "8000", "-ac", "1", "-i", linear.path,
                                                   "-c:a", "pcm_\(law)", "-f", law, directory.appendingPathComponent("coded").path])
        try #require(encoded.status == 0, "\(encoded.stderr)")
        let theirs = [UInt8](try Data(contentsOf: directory.appendingPathComponent("coded")))
        let ours = samples.map { law == "mulaw" ? G711.muLaw($0) : G711.aLaw($0) }
        try #require(theirs.count == ours.count)
        let differing = zip(theirs, ours).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of 65536 samples coded otherwise than FFmpeg")
    }
}
