import Foundation
import Reel
import Testing

/// `reel pano render` against ffmpeg's v360 on the same frames (lossless output, so the
/// comparison is of pictures, not of encoders).
@Suite struct PanoRenderTests {
    static func clip() throws -> String {
        try Fixtures.made("equirect-audio-2s.mp4", [
            "-f", "lavfi", "-i", "testsrc=size=768x384:rate=25:duration=2", "-f", "lavfi", "-i", "sine=frequency=500:duration=2",
            "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac"])
    }

    static func hashes(_ path: String, filter: String? = nil) throws -> [String] {
        let result = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-map", "0:v:0"] + (filter.map { ["-vf", $0] } ?? [])
                                       + ["-vsync", "passthrough", "-f", "framemd5", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last!.trimmingCharacters(in: .whitespaces)) }
    }

    static func v360(yaw: Float, pitch: Float = 0, fov: Float = 90, width: Int, height: Int) -> String {
        let view = PanoramaView(yaw: yaw, pitch: pitch, horizontalFOV: fov).squarePixels(width: width, height: height)
        return "v360=input=e:output=flat:yaw=\(view.yaw):pitch=\(view.pitch):h_fov=\(view.horizontalFOV):v_fov=\(view.verticalFOV):w=\(width):h=\(height):interp=linear"
    }

    @Test func aFixedViewIsV360FrameForFrameWithTheAudioCopied() throws {
        let clip = try Self.clip()
        let output = try Paths.temporaryDirectory().appendingPathComponent("fixed.mp4").path
        let result = try reel("pano", "render", clip, "-o", output, "--yaw", "30", "--pitch", "-10", "--size", "320x180", "--crf", "0", timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("100 %") && result.stderr.contains("wrote 50 frames"), "\(result.stderr)")
        let ours = try Self.hashes(output), theirs = try Self.hashes(clip, filter: Self.v360(yaw: 30, pitch: -10, width: 320, height: 180))
        #expect(ours.count == 50 && ours == theirs)
        // The audio is the input's, packet for packet.
        let packets = { (path: String) throws -> String in
            try Processes.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=size", "-of", "csv=p=0", path]).stdout
        }
        #expect(try packets(output) == (try packets(clip)) && !(try packets(output)).isEmpty)
    }

    @Test func aPathPassesThroughItsKeyframes() throws {
        let clip = try Self.clip()
        let directory = try Paths.temporaryDirectory()
        let pathFile = directory.appendingPathComponent("tour.json")
        try Data(#"{"keyframes": [{"time": 0, "yaw": 0, "fov": 90}, {"time": 1, "yaw": 90, "pitch": 20, "fov": 60}]}"#.utf8).write(to: pathFile)
        let output = directory.appendingPathComponent("tour.mp4").path
        let result = try reel("pano", "render", clip, "-o", output, "--path", pathFile.path, "--size", "320x180", "--crf", "0", timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let ours = try Self.hashes(output)
        try #require(ours.count == 50)
        #expect(ours[0] == (try Self.hashes(clip, filter: Self.v360(yaw: 0, width: 320, height: 180)))[0], "frame at 0 s")
        #expect(ours[25] == (try Self.hashes(clip, filter: Self.v360(yaw: 90, pitch: 20, fov: 60, width: 320, height: 180)))[25], "frame at 1 s")
        #expect(ours[40] == (try Self.hashes(clip, filter: Self.v360(yaw: 90, pitch: 20, fov: 60, width: 320, height: 180)))[40], "held after the last keyframe")
        #expect(ours[12] != ours[0] && ours[12] != ours[25], "between keyframes the view moves")
    }

    /// Sources of the other projections, made from the equirectangular clip by v360 itself:
    /// `reel pano render` of each is v360's view of it, frame for frame. The cubemap is
    /// tagged with Spherical Video V2's `cbmp` (YouTube's layout, 4 pixels of padding) and
    /// needs no --projection.
    /// One second of the equirectangular clip turned into another projection by v360.
    static func projected(_ name: String, making: String) throws -> String {
        try Fixtures.made("pano-\(name).mp4", ["-i", try clip(), "-t", "1", "-vf", "v360=input=e:\(making):interp=linear",
                                                "-c:v", "libx264", "-crf", "10", "-pix_fmt", "yuv420p", "-an"])
    }

    @Test(arguments: [
        ("eac", "output=eac:w=768:h=512", ["--projection", "eac"], "input=eac"),
        ("dfisheye", "output=dfisheye:w=768:h=384:h_fov=195:v_fov=195", ["--projection", "dfisheye", "--lens-fov", "195"],
         "input=dfisheye:ih_fov=195:iv_fov=195"),
        ("c6x1", "output=c6x1:w=1152:h=192:out_forder=fbudlr:out_frot=012301", ["--projection", "c6x1", "--cube-faces", "fbudlr", "--cube-rotations", "012301"],
         "input=c6x1:in_forder=fbudlr:in_frot=012301"),
        ("c3x2-cbmp", "output=c3x2:w=576:h=384:out_frot=002200:fout_pad=4", [], "input=c3x2:in_frot=002200:fin_pad=4"),
    ])
    func otherProjectionsAreV360FrameForFrame(name: String, making: String, options: [String], reading: String) throws {
        let made = try Self.projected(name, making: making)
        var source = made
        if name.hasSuffix("cbmp") {
            source = try Paths.temporaryDirectory().appendingPathComponent("tagged-\(name).mp4").path
            try? FileManager.default.removeItem(atPath: source)
            try FileManager.default.copyItem(atPath: made, toPath: source)
            try MP4Patches.addSphericalV2(URL(fileURLWithPath: source), stereoMode: 0, yaw: 0, pitch: 0, roll: 0,
                                          projection: MP4Patches.cbmp(layout: 0, padding: 4))
        }
        let output = try Paths.temporaryDirectory().appendingPathComponent("\(name)-view.mp4").path
        let result = try Processes.run(Paths.reel, ["pano", "render", source, "-o", output, "--yaw", "50", "--pitch", "35", "--size", "320x180",
                                                    "--crf", "0"] + options, timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let view = PanoramaView(yaw: 50, pitch: 35, horizontalFOV: 90).squarePixels(width: 320, height: 180)
        let filter = "v360=\(reading):output=flat:yaw=50:pitch=35:h_fov=90:v_fov=\(view.verticalFOV):w=320:h=180:interp=linear"
        let ours = try Self.hashes(output), theirs = try Self.hashes(source, filter: filter)
        #expect(ours.count == 25 && ours == theirs, "\(name): \(zip(ours, theirs).filter { $0 != $1 }.count) of \(ours.count) frames differ")
    }

    @Test func badRequestsAreClearErrors() throws {
        let clip = try Self.clip()
        let directory = try Paths.temporaryDirectory()
        let badJSON = directory.appendingPathComponent("bad.json")
        try Data(#"{"keyframes": [{"time": 0, "yaw": 0, "pitch": 120}]}"#.utf8).write(to: badJSON)
        let path = try reel("pano", "render", clip, "-o", directory.appendingPathComponent("x.mp4").path, "--path", badJSON.path)
        #expect(path.status == 1 && path.stderr.contains("pitch must be between -90 and 90"), "\(path.stderr)")
        let size = try reel("pano", "render", clip, "-o", "x.mp4", "--size", "321x180")
        #expect(size.status != 0 && size.stderr.contains("--size"))
        let missing = try reel("pano", "render", "/nonexistent.mp4", "-o", directory.appendingPathComponent("y.mp4").path)
        #expect(missing.status == 1 && missing.stderr.hasPrefix("reel: cannot open"), "\(missing.stderr)")
        let container = try reel("pano", "render", clip, "-o", directory.appendingPathComponent("z.unknown").path)
        #expect(container.status == 1 && container.stderr.contains("cannot write"), "\(container.stderr)")
        let projection = try reel("pano", "render", clip, "-o", "p.mp4", "--projection", "mercator")
        #expect(projection.status != 0 && projection.stderr.contains("--projection must be one of equirect, hequirect"), "\(projection.stderr)")
        let faces = try reel("pano", "render", clip, "-o", "p.mp4", "--projection", "c3x2", "--cube-faces", "rrudfb")
        #expect(faces.status != 0 && faces.stderr.contains("invalid cube face order 'rrudfb'"), "\(faces.stderr)")
        let small = try reel("pano", "render", clip, "-o", directory.appendingPathComponent("s.mp4").path, "--projection", "c3x2", "--cube-padding", "100")
        #expect(small.status == 1 && small.stderr.contains("invalid cube face padding 100"), "\(small.stderr)")
    }
}
