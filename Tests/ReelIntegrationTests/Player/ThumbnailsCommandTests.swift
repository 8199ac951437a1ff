import Foundation
import Testing

/// `reel thumbnails`: sprite sheets and the WebVTT index, each thumbnail compared with
/// ffmpeg's picture of the keyframe at or before its time, scaled the same.
@Suite(.serialized) struct ThumbnailsCommandTests {
    /// 30 s of 640x360 at 25 fps, a keyframe every 2 s exactly.
    static func clip() throws -> String {
        try Fixtures.made("thumbnails-30s.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=30", "-c:v", "libx264", "-g", "50", "-sc_threshold", "0", "-pix_fmt", "yuv420p"])
    }

    /// ffmpeg's picture at `time` (a keyframe's), scaled to 160x90 RGB in one libswscale
    /// step with the flags Reel's thumbnails use, as a PNG.
    static func reference(_ clip: String, at time: Double, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("reference-\(time).png").path
        let scale = "scale=160:90:flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgb24"
        let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-ss", String(time), "-i", clip, "-frames:v", "1", "-vf", scale, path])
        try #require(made.status == 0, "\(made.stderr)")
        return path
    }

    @Test(.timeLimit(.minutes(2))) func eachThumbnailIsTheKeyframeAtOrBeforeItsTime() throws {
        let clip = try Self.clip()
        let directory = try Paths.temporaryDirectory()
        let (sheet, index) = (directory.appendingPathComponent("sheet.png").path, directory.appendingPathComponent("sheet.vtt").path)
        let result = try reel("thumbnails", clip, "--every", "5", "--size", "160x90", "--columns", "4", "--rows", "1", "-o", sheet, "--vtt", index)
        #expect(result.status == 0 && result.stderr.contains("6 thumbnails on 2 sheets"), "\(result.stderr)")
        let text = try String(contentsOfFile: index, encoding: .utf8)
        #expect(text.hasPrefix("WEBVTT\n"))
        // Each cue: its start, the sheet and the rectangle.
        let cues = text.components(separatedBy: "\n\n").dropFirst().map { $0.split(separator: "\n") }
        try #require(cues.count == 6, "\(text)")
        let keyframes = try keyframeTimes(clip)
        for (number, cue) in cues.enumerated() {
            let start = Double(number) * 5
            #expect(cue[0].hasPrefix(String(format: "00:00:%02d.000 --> ", Int(start))), "\(cue)")
            let target = String(cue[1])
            let expectedSheet = number < 4 ? "sheet.png" : "sheet-2.png"
            #expect(target == "\(expectedSheet)#xywh=\(number % 4 * 160),0,160,90", "\(target)")
            let keyframe = try #require(keyframes.last { $0 <= start + 1e-6 })
            let shot = directory.appendingPathComponent(expectedSheet).path
            let crop = (number % 4 * 160, 0, 160, 90)
            let own = try VirtualDisplay.psnr(shot, crop: crop, against: try Self.reference(clip, at: keyframe, in: directory))
            let next = try VirtualDisplay.psnr(shot, crop: crop, against: try Self.reference(clip, at: keyframe + 2, in: directory))
            #expect(own >= 40 && own > next, "thumbnail \(number) at \(start) s: \(own) dB against the keyframe at \(keyframe) s, \(next) dB against the next")
        }
    }

    @Test(.timeLimit(.minutes(1))) func aJPEGSheetIsReadByFFmpegAndBadSizesAreRefused() throws {
        let clip = try Self.clip()
        let directory = try Paths.temporaryDirectory()
        let sheet = directory.appendingPathComponent("sheet.jpg").path
        let result = try reel("thumbnails", clip, "--every", "10", "-o", sheet)
        #expect(result.status == 0, "\(result.stderr)")
        let probed = try Processes.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", sheet])
        #expect(probed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "mjpeg,480,90", "\(probed.stdout)")
        let first = try VirtualDisplay.psnr(sheet, crop: (0, 0, 160, 90), against: try Self.reference(clip, at: 0, in: directory))
        // JPEG at quality 2, 4:4:4: ffmpeg's own JPEG of the same picture scores about 43 dB.
        #expect(first >= 38, "\(first) dB")
        for bad in [["--size", "0x90"], ["--every", "0"], ["-o", directory.appendingPathComponent("sheet.gif").path]] {
            let refused = try Processes.run(Paths.reel, ["thumbnails", clip] + (bad.contains("-o") ? bad : bad + ["-o", sheet]))
            #expect(refused.status != 0 && !refused.stderr.isEmpty, "\(bad): \(refused.stderr)")
        }
    }
}
