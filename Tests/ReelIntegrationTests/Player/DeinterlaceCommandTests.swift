import Foundation
import Testing

/// `reel play --deinterlace`: every picture equal to FFmpeg's bwdif of the same file
/// (framemd5), a picture per field by default; a progressive file untouched; through
/// GStreamer, a picture per field close to bwdif's.
@Suite(.serialized) struct DeinterlaceCommandTests {
    /// 2 s of 50 fields/s coded as interlaced H.264 (top field first) in MPEG-TS, as
    /// broadcast carries it.
    private func interlaced() throws -> String {
        try Fixtures.made("interlaced-tff-2s.ts", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=50:duration=2", "-vf", "tinterlace=mode=interleave_top,setfield=tff",
            "-c:v", "libx264", "-flags", "+ilme+ildct", "-x264-params", "tff=1", "-g", "25", "-pix_fmt", "yuv420p", "-f", "mpegts"])
    }

    private func progressive() throws -> String {
        try Fixtures.made("progressive-2s.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2", "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p"])
    }

    /// The MD5 of each picture ffmpeg makes of `input` with `filters` (none: as decoded).
    private func hashes(_ input: [String], filters: String? = nil) throws -> [String] {
        let result = try Processes.run("ffmpeg", ["-v", "error", "-nostdin"] + input + ["-map", "0:v:0"] + (filters.map { ["-vf", $0] } ?? [])
                                       + ["-fps_mode", "passthrough", "-f", "framemd5", "-"])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last!.trimmingCharacters(in: .whitespaces)) }
    }

    /// The pictures Reel shows of `clip`, untimed (none dropped), through a y4m tap.
    private func shown(_ clip: String, _ options: [String]) throws -> [String] {
        let directory = try Paths.temporaryDirectory()
        let y4m = directory.appendingPathComponent("shown.y4m").path
        let result = try Processes.run(Paths.reel, ["play", "--headless", "--untimed", "--no-audio", "--tap", "y4m:\(y4m)"] + options + [clip], timeout: 60)
        try #require(result.status == 0, "\(result.stderr)")
        return try hashes(["-i", y4m])
    }

    @Test(.timeLimit(.minutes(2))) func interlacedPicturesAreBwdifsAPicturePerFieldOrFrame() throws {
        let clip = try interlaced()
        let probed = try Processes.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=field_order", "-of", "csv=p=0", clip])
        // MPEG-TS lists the stream under its program too: each line says top field first.
        #expect(probed.stdout.split(separator: "\n").allSatisfy { $0 == "tt" }, "the fixture is interlaced: \(probed.stdout)")
        let perField = try hashes(["-i", clip], filters: "bwdif=mode=send_field:parity=auto:deint=interlaced")
        let byDefault = try shown(clip, [])
        #expect(perField.count == 100 && byDefault == perField, "\(byDefault.count) pictures, bwdif's \(perField.count); first differing at \(Array(zip(byDefault, perField)).firstIndex { $0 != $1 } ?? -1)")
        let perFrame = try hashes(["-i", clip], filters: "bwdif=mode=send_frame:parity=auto:deint=all")
        let framed = try shown(clip, ["--deinterlace", "yes", "--deinterlace-mode", "frame"])
        #expect(perFrame.count == 50 && framed == perFrame, "\(framed.count) pictures, bwdif's \(perFrame.count)")
        // Not deinterlaced: the decoder's pictures, which differ from bwdif's.
        let woven = try shown(clip, ["--deinterlace", "no"])
        let decoded = try hashes(["-i", clip])
        #expect(woven == decoded && woven != perFrame)
    }

    /// GStreamer's engine deinterlaces in its own pipeline (its `deinterlace`, yadif): a
    /// picture per field, each close to bwdif's.
    @Test(.timeLimit(.minutes(2))) func theGStreamerEngineDeinterlacesAPicturePerFieldToo() throws {
        let clip = try interlaced()
        let directory = try Paths.temporaryDirectory()
        let y4m = directory.appendingPathComponent("gstreamer.y4m").path
        let result = try Processes.run(Paths.reel, ["play", "--headless", "--untimed", "--no-audio", "--engine", "gstreamer", "--tap", "y4m:\(y4m)", clip], timeout: 60)
        try #require(result.status == 0, "\(result.stderr)")
        let count = try hashes(["-i", y4m]).count
        // Picture by picture: both renumbered at 50 a second (their time bases differ).
        let graph = "[0]setpts=N/(50*TB)[a];[1]bwdif=mode=send_field:parity=auto:deint=interlaced,setpts=N/(50*TB)[b];[a][b]psnr"
        let compared = try Processes.run("ffmpeg", ["-v", "info", "-nostdin", "-i", y4m, "-i", clip, "-lavfi", graph, "-f", "null", "-"])
        let psnr = compared.stderr.range(of: "average:").flatMap { Double(compared.stderr[$0.upperBound...].prefix { !$0.isWhitespace }) } ?? 0
        print(String(format: "deinterlace: the GStreamer engine's %d pictures against bwdif's: PSNR %.1f dB", count, psnr))
        // GStreamer's element sends a field or two again at the end of the stream.
        #expect((100...102).contains(count) && psnr >= 30, "\(count) pictures, PSNR \(psnr) dB: \(compared.stderr.suffix(400))")
    }

    @Test(.timeLimit(.minutes(1))) func aProgressiveFileIsLeftUntouchedByAuto() throws {
        let clip = try progressive()
        let (shownByDefault, decoded) = (try shown(clip, []), try hashes(["-i", clip]))
        #expect(decoded.count == 50 && shownByDefault == decoded)
    }
}
