import Foundation
import Reel
import Testing

/// Spherical metadata written into ffmpeg-made files by a test helper, read by Reel's MP4
/// box reader; ffprobe reads the V2 boxes too, as an independent check of the files.
@Suite struct SphericalMetadataTests {
    static func plainClip(_ name: String) throws -> URL {
        let path = try Paths.temporaryDirectory().appendingPathComponent(name)
        let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc=size=256x128:rate=10:duration=1",
                                                "-c:v", "libx264", "-pix_fmt", "yuv420p", path.path])
        guard made.status == 0 else { throw TestSetupError(made.stderr) }
        return path
    }

    @Test func version2BoxesGiveProjectionStereoAndPose() throws {
        let clip = try Self.plainClip("v2.mp4")
        try MP4Patches.addSphericalV2(clip, stereoMode: 1, yaw: 30, pitch: -10.5, roll: 5)
        let metadata = try #require(SphericalMetadata.read(path: clip.path))
        #expect(metadata.projection == .equirectangular && metadata.stereo == .topBottom && metadata.version == 2)
        #expect(metadata.pose == (30, -10.5, 5))
        // ffprobe agrees: the boxes are well formed.
        let probe = try Processes.run("ffprobe", ["-v", "error", "-show_streams", "-select_streams", "v:0", "-of", "json", clip.path])
        #expect(probe.stdout.contains("\"projection\": \"equirectangular\""), "\(probe.stdout)")
        #expect(probe.stdout.contains("\"type\": \"top and bottom\""), "\(probe.stdout)")
        #expect(probe.stdout.contains("\"yaw\": 30") && probe.stdout.contains("\"roll\": 5"), "\(probe.stdout)")
        // The file still plays.
        #expect(try reel("decode", clip.path).status == 0)
    }

    /// V2's cubemap (`cbmp`, YouTube's 3×2 layout with padding) and VR180's equirectangular
    /// crop (`equi` bounds) give their projections; ffprobe reads the same boxes.
    @Test func version2CubemapsAndBoundsGiveTheirProjections() throws {
        let cubemap = try Self.plainClip("cbmp.mp4")
        try MP4Patches.addSphericalV2(cubemap, stereoMode: 0, yaw: 0, pitch: 0, roll: 0, projection: MP4Patches.cbmp(layout: 0, padding: 2))
        let cube = try #require(SphericalMetadata.read(path: cubemap.path))
        #expect(cube.projection == .cubemap && cube.cubemap?.layout == 0 && cube.cubemap?.padding == 2)
        #expect(cube.panoramaProjection == .cubemap3x2(try CubemapLayout(faceOrder: "rludfb", faceRotations: "002200", padding: 2)))
        var probe = try Processes.run("ffprobe", ["-v", "error", "-show_streams", "-select_streams", "v:0", "-of", "json", cubemap.path])
        #expect(probe.stdout.contains("\"projection\": \"cubemap\"") && probe.stdout.contains("\"padding\": 2"), "\(probe.stdout)")

        let vr180 = try Self.plainClip("vr180.mp4")
        try MP4Patches.addSphericalV2(vr180, stereoMode: 2, yaw: 0, pitch: 0, roll: 0, projection: MP4Patches.equi(left: 1 << 30, right: 1 << 30))
        let half = try #require(SphericalMetadata.read(path: vr180.path))
        #expect(half.projection == .equirectangular && half.stereo == .leftRight && half.panoramaProjection == .halfEquirectangular)
        probe = try Processes.run("ffprobe", ["-v", "error", "-show_streams", "-select_streams", "v:0", "-of", "json", vr180.path])
        // ffprobe gives the crop in pixels of the whole 512-pixel picture (rounded its way:
        // 129 and 127): 256 pixels cut, nothing above or below.
        func bound(_ name: String) -> Int? {
            probe.stdout.components(separatedBy: "\"bound_\(name)\": ").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) }
        }
        #expect(probe.stdout.contains("\"projection\": \"tiled equirectangular\""), "\(probe.stdout)")
        #expect((bound("left") ?? 0) + (bound("right") ?? 0) == 256 && bound("top") == 0 && bound("bottom") == 0, "\(probe.stdout)")

        // What Reel cannot show is not guessed at: another cube layout, an uneven crop.
        let other = try Self.plainClip("cbmp-layout-1.mp4")
        try MP4Patches.addSphericalV2(other, stereoMode: 0, yaw: 0, pitch: 0, roll: 0, projection: MP4Patches.cbmp(layout: 1, padding: 0))
        #expect(try #require(SphericalMetadata.read(path: other.path)).panoramaProjection == nil)
        let cropped = try Self.plainClip("equi-cropped.mp4")
        try MP4Patches.addSphericalV2(cropped, stereoMode: 0, yaw: 0, pitch: 0, roll: 0, projection: MP4Patches.equi(top: 1 << 29))
        #expect(try #require(SphericalMetadata.read(path: cropped.path)).panoramaProjection == nil)
    }

    @Test func version1XMLGivesProjectionStereoAndPose() throws {
        let clip = try Self.plainClip("v1.mp4")
        try MP4Patches.addSphericalV1(clip, xml: """
            <?xml version="1.0"?><rdf:SphericalVideo xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" \
            xmlns:GSpherical="http://ns.google.com/videos/1.0/spherical/"><GSpherical:Spherical>true</GSpherical:Spherical>\
            <GSpherical:Stitched>true</GSpherical:Stitched><GSpherical:StitchingSoftware>Reel test</GSpherical:StitchingSoftware>\
            <GSpherical:ProjectionType>equirectangular</GSpherical:ProjectionType><GSpherical:StereoMode>left-right</GSpherical:StereoMode>\
            <GSpherical:InitialViewHeadingDegrees>90</GSpherical:InitialViewHeadingDegrees>\
            <GSpherical:InitialViewPitchDegrees>-15</GSpherical:InitialViewPitchDegrees></rdf:SphericalVideo>
            """)
        let metadata = try #require(SphericalMetadata.read(path: clip.path))
        #expect(metadata.projection == .equirectangular && metadata.stereo == .leftRight && metadata.version == 1)
        #expect(metadata.pose == (90, -15, 0))
        #expect(try reel("decode", clip.path).status == 0)
    }

    @Test func filesWithoutMetadataStayFlat() throws {
        #expect(SphericalMetadata.read(path: try Self.plainClip("flat.mp4").path) == nil)
        #expect(SphericalMetadata.read(path: Fixtures.named("h264-baseline-aac.mp4").path) == nil)
        #expect(SphericalMetadata.read(path: "/nonexistent.mp4") == nil)
    }

    /// Damaged boxes: sizes past the end, zero sizes, truncation; never a crash or a hang.
    @Test func damagedFilesAreNotSpherical() throws {
        let clip = try Self.plainClip("damaged.mp4")
        try MP4Patches.addSphericalV2(clip, stereoMode: 0, yaw: 0, pitch: 0, roll: 0)
        let bytes = [UInt8](try Data(contentsOf: clip))
        #expect(try SphericalMetadata.read(from: MP4MemorySource(bytes)) != nil)
        var rng = SeededGenerator(seed: 5)
        for _ in 0..<200 {
            var damaged = bytes
            for _ in 0..<8 { damaged[Int.random(in: 0..<damaged.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            if Bool.random(using: &rng) { damaged = Array(damaged.prefix(Int.random(in: 0..<damaged.count, using: &rng))) }
            _ = try? SphericalMetadata.read(from: MP4MemorySource(damaged))
        }
        // A box claiming more than the file holds is an error, not an allocation.
        let huge: [UInt8] = [0xFF, 0xFF, 0xFF, 0xF0] + Array("moov".utf8) + [0, 0, 0, 0]
        #expect(throws: MP4Error.self) { try MP4MemorySource(huge).boxes() }
        let large: [UInt8] = [0, 0, 0, 1] + Array("moov".utf8) + [0x7F, 0, 0, 0, 0, 0, 0, 0]
        #expect(throws: MP4Error.self) { try MP4MemorySource(large).boxes() }
    }
}
