import Foundation
import Reel
import Testing

/// Reel's VAP compositing against ffmpeg's crop + scale + alphamerge on every frame of
/// Tencent's files, in premultiplied space (VAP colour is premultiplied over black).
@Suite struct VAPCompositingTests {
    static func compare(_ name: String, layout: VAPLayout?) throws {
        let path = try Paths.sharedFixtures("vap").appendingPathComponent(name).path
        let renderer = try VAPRenderer(path: path, layout: layout)
        let reference = try VAPOracle.frames(path, layout: renderer.layout)
        var count = 0, worst: (Int, VAPOracle.Difference)?
        while let (index, picture) = try renderer.nextFrame() {
            #expect(index == count, "frames out of order")
            guard index < reference.count else { break }
            let difference = VAPOracle.difference(VAPOracle.packed(picture), reference[index])
            if !difference.acceptable { Issue.record("\(name) frame \(index): \(difference)") }
            if worst == nil || difference.colourMean + difference.alphaMean > worst!.1.colourMean + worst!.1.alphaMean { worst = (index, difference) }
            count += 1
        }
        #expect(count == reference.count, "\(name): \(count) frames, ffmpeg \(reference.count)")
        print("\(name): \(count) frames; worst frame \(worst?.0 ?? -1): \(worst.map { "\($0.1)" } ?? "")")
    }

    @Test func demoMatchesFFmpeg() throws {
        try Self.compare("demo.mp4", layout: nil)
    }

    @Test func specialSizeWithTheLayoutGivenMatchesFFmpeg() throws {
        try Self.compare("special_size_750.mp4", layout: VAPLayout(alpha: .right, videoWidth: 750, videoHeight: 814))
    }

    @Test func specialSizeWithTheLayoutDetectedMatchesFFmpeg() throws {
        let path = try Paths.sharedFixtures("vap").appendingPathComponent("special_size_750.mp4").path
        let detected = try VAPRenderer.detectLayout(path: path)
        #expect(detected == VAPLayout(alpha: .right, videoWidth: 750, videoHeight: 814))
        try Self.compare("special_size_750.mp4", layout: detected)
    }
}
