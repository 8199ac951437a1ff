import Foundation
import Reel
import Testing

/// `reel play`'s subtitle options: the file named as the video loaded as mpv loads it,
/// snapshots with the text drawn in, `--sub-auto no`, and bad subtitle files.
@Suite struct SubtitleCommandTests {
    /// The frame at 1.5 s (frame 37, 1.48 s) by FFmpeg, in RGB: with the SubRip file drawn, and without.
    static func references(_ video: String, _ subtitles: String, in directory: URL) throws -> (with: String, without: String) {
        let with = directory.appendingPathComponent("with.png").path, without = directory.appendingPathComponent("without.png").path
        try reference(video, "subtitles=\(subtitles)", to: with)
        try reference(video, "null", to: without)
        return (with, without)
    }

    @Test(.timeLimit(.minutes(2))) func theFileNamedAsTheVideoIsLoadedAndDrawnIntoSnapshots() throws {
        let (video, subtitles) = try SubtitleFixtures.videoWithSubRip()
        let directory = try Paths.temporaryDirectory()
        let (with, without) = try Self.references(video, subtitles, in: directory)
        let automatic = directory.appendingPathComponent("automatic.png").path, none = directory.appendingPathComponent("none.png").path
        let played = try Processes.run(Paths.reel, ["play", "--headless", "--untimed", "--snapshot", "1.5:\(automatic)", video])
        try #require(played.status == 0, "\(played.stderr)")
        let notLoaded = try Processes.run(Paths.reel, ["play", "--headless", "--untimed", "--sub-auto", "no", "--snapshot", "1.5:\(none)", video])
        try #require(notLoaded.status == 0, "\(notLoaded.stderr)")
        let full = (x: 0, y: 0, width: SubtitleFixtures.size.width, height: SubtitleFixtures.size.height)
        let drawn = try VirtualDisplay.psnr(automatic, crop: full, against: with)
        #expect(drawn >= 40, "snapshot with video.srt loaded: \(drawn) dB against FFmpeg's subtitles filter")
        #expect(try VirtualDisplay.psnr(none, crop: full, against: without) == .infinity, "--sub-auto no still drew subtitles")
        #expect(try VirtualDisplay.psnr(automatic, crop: full, against: without) < 35, "no text in the snapshot")
    }

    /// Over a 360° view the text goes on the view, where libass puts it at the view's size,
    /// not onto the sphere: our view with the SubRip file against FFmpeg's `subtitles`
    /// filter run on our view without it.
    @Test(.timeLimit(.minutes(2))) func overA360ViewTheTextIsDrawnOnTheView() throws {
        let (_, subtitles) = try SubtitleFixtures.videoWithSubRip()
        let sphere = try PanoRenderTests.clip()
        let directory = try Paths.temporaryDirectory()
        let with = directory.appendingPathComponent("view-with.png").path, without = directory.appendingPathComponent("view-without.png").path
        let view = ["play", "--headless", "--untimed", "--projection", "equirect", "--yaw", "30", "--view-size", "640x360", "--duration", "1.8"]
        let drawn = try Processes.run(Paths.reel, view + ["--sub-file", subtitles, "--snapshot", "1.5:\(with)", sphere])
        try #require(drawn.status == 0, "\(drawn.stderr)")
        let plain = try Processes.run(Paths.reel, view + ["--snapshot", "1.5:\(without)", sphere])
        try #require(plain.status == 0, "\(plain.stderr)")
        let reference = directory.appendingPathComponent("ffmpeg-with.png").path
        let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", without, "-vf", "format=rgb24,setpts=PTS+1.5/TB,subtitles=\(subtitles)", reference])
        try #require(made.status == 0, "\(made.stderr)")
        let full = (x: 0, y: 0, width: 640, height: 360)
        let quality = try VirtualDisplay.psnr(with, crop: full, against: reference)
        #expect(quality >= 40, "the view with subtitles: \(quality) dB against FFmpeg's subtitles filter over the view")
        #expect(try VirtualDisplay.psnr(with, crop: full, against: without) < 40, "no text on the view")
        print("subtitles over a 360° view: \(String(format: "%.1f", quality)) dB against FFmpeg's subtitles filter over the same view")
    }

    /// The frame at 1.5 s (frame 37) by FFmpeg, in RGB, with `filter` after the conversion.
    static func reference(_ video: String, _ filter: String, to path: String) throws {
        let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", video, "-vf", "\(SubtitleTests.accurateRGB),\(filter),select=eq(n\\,37)", "-frames:v", "1", path])
        try #require(made.status == 0, "\(made.stderr)")
    }

    /// A snapshot at 1.5 s of `reel play` with `options`, written to `path`.
    static func snapshot(_ video: String, _ options: [String], to path: String) throws {
        let played = try Processes.run(Paths.reel, ["play", "--headless", "--untimed", "--duration", "1.8"] + options + ["--snapshot", "1.5:\(path)", video])
        try #require(played.status == 0, "\(played.stderr)")
    }

    /// `--slang` picks the subtitle track by its language, neither marked default: each
    /// snapshot is FFmpeg's `subtitles` filter with that track (`si`), not the other's, and
    /// without `--slang` no track shows.
    @Test(.timeLimit(.minutes(2))) func slangChoosesTheTrackByItsLanguage() throws {
        let video = try SubtitleFixtures.matroskaWithTwoLanguages()
        let directory = try Paths.temporaryDirectory()
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try Self.reference(video, "subtitles=\(video):si=0", to: path("ffmpeg-eng.png"))
        try Self.reference(video, "subtitles=\(video):si=1", to: path("ffmpeg-fre.png"))
        try Self.reference(video, "null", to: path("ffmpeg-none.png"))
        try Self.snapshot(video, ["--slang", "fre,eng"], to: path("fre.png"))
        try Self.snapshot(video, ["--slang", "eng"], to: path("eng.png"))
        try Self.snapshot(video, [], to: path("none.png"))
        let full = (x: 0, y: 0, width: SubtitleFixtures.size.width, height: SubtitleFixtures.size.height)
        func psnr(_ shot: String, _ reference: String) throws -> Double { try VirtualDisplay.psnr(path(shot), crop: full, against: path(reference)) }
        let (french, english) = (try psnr("fre.png", "ffmpeg-fre.png"), try psnr("eng.png", "ffmpeg-eng.png"))
        print("--slang: fre \(french) dB, eng \(english) dB against FFmpeg's subtitles filter with that track")
        #expect(french >= 40 && english >= 40, "--slang fre: \(french) dB, --slang eng: \(english) dB")
        #expect(try psnr("fre.png", "ffmpeg-eng.png") < 35 && psnr("eng.png", "ffmpeg-fre.png") < 35, "the two tracks drew alike")
        #expect(try psnr("none.png", "ffmpeg-none.png") == .infinity, "a track not marked default showed without --slang")
    }

    /// `--sub-scale 2` draws the text at twice its size, as libass draws it with the font
    /// size and its outline doubled (libass's font scale, mpv's `--sub-scale`, scales the
    /// outline with the text: FFmpeg's `subtitles` filter with `force_style` Fontsize 32 and
    /// Outline 2 for SubRip's 16 and 1; 49 dB measured, 26 dB with the outline left at 1),
    /// and not at its own size.
    @Test(.timeLimit(.minutes(2))) func subScaleDrawsTheTextAsLibassAtThatSize() throws {
        let (video, subtitles) = try SubtitleFixtures.videoWithSubRip()
        let directory = try Paths.temporaryDirectory()
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        try Self.reference(video, "subtitles=\(subtitles):force_style='Fontsize=32,Outline=2'", to: path("ffmpeg-32.png"))
        try Self.reference(video, "subtitles=\(subtitles)", to: path("ffmpeg-16.png"))
        try Self.snapshot(video, ["--sub-file", subtitles, "--sub-scale", "2"], to: path("scaled.png"))
        let full = (x: 0, y: 0, width: SubtitleFixtures.size.width, height: SubtitleFixtures.size.height)
        let doubled = try VirtualDisplay.psnr(path("scaled.png"), crop: full, against: path("ffmpeg-32.png"))
        let unscaled = try VirtualDisplay.psnr(path("scaled.png"), crop: full, against: path("ffmpeg-16.png"))
        print("--sub-scale 2: \(doubled) dB against libass at Fontsize 32 (outline 2), \(unscaled) dB at 16")
        #expect(doubled >= 40 && unscaled < 35, "--sub-scale 2: \(doubled) dB against Fontsize 32, \(unscaled) dB against 16")
    }

    @Test func badSubtitleFilesAreRefusedClearly() throws {
        let (video, _) = try SubtitleFixtures.videoWithSubRip()
        let directory = try Paths.temporaryDirectory()
        let garbage = directory.appendingPathComponent("garbage.srt").path
        try Data([0x00, 0x01, 0x02, 0xFF, 0x47]).write(to: URL(fileURLWithPath: garbage))
        let cases: [(file: String, says: String)] = [
            (directory.appendingPathComponent("missing.srt").path, "no such file"),
            (video, "holds no subtitles"),
            (garbage, "garbage.srt"),
        ]
        for (file, says) in cases {
            let result = try Processes.run(Paths.reel, ["play", "--headless", "--sub-file", file, video], timeout: 30)
            #expect(result.status == 1 && result.stderr.contains(says), "--sub-file \(file): \(result.status) \(result.stderr)")
        }
        let unknown = try Processes.run(Paths.reel, ["play", "--headless", "--duration", "0.2", "--sid", "5", video], timeout: 30)
        #expect(unknown.status == 0 && unknown.stderr.contains("--sid 5: the input has 1 subtitle track"), "\(unknown.stderr)")
        let invalid = try Processes.run(Paths.reel, ["play", "--headless", "--sub-scale", "0", video], timeout: 30)
        #expect(invalid.status != 0 && invalid.stderr.contains("--sub-scale"), "\(invalid.stderr)")
    }
}
