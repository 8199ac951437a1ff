import Foundation
import Testing

extension LightPlaybackTests {
    /// A styled ASS track in the real window (Xvfb), against FFmpeg's `subtitles` filter,
    /// and the keys that change it: `v` hides and shows, `z` delays, `j` cycles to none.
    @Suite(.serialized) struct SubtitleWindowTests {
        /// FFmpeg's frame 50 of `video` (2.0 s: the karaoke line and the sign) through `filter`, written to `path`.
        static func frame50(of video: String, filter: String, to path: String) throws -> String {
            let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", video, "-vf", "\(filter),select=eq(n\\,50)", "-frames:v", "1", path])
            try #require(made.status == 0, "\(made.stderr)")
            return path
        }

        @Test(.timeLimit(.minutes(2))) func theWindowShowsTheASSTrackAndItsKeysChangeIt() throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let (video, _) = try SubtitleFixtures.matroskaWithStyledASS()
            let directory = try Paths.temporaryDirectory()
            func reference(_ name: String, _ filter: String) throws -> String { try Self.frame50(of: video, filter: filter, to: directory.appendingPathComponent(name).path) }
            let with = try reference("with.png", "\(SubtitleTests.accurateRGB),subtitles=\(video)")
            let without = try reference("without.png", SubtitleTests.accurateRGB)
            let (player, window) = try display.play(["--pause", "--start", "2", video])
            defer { player.stop() }
            let picture = (window.x, window.y, 320, 240)
            var shots = 0
            /// The window's picture, once it settles on `reference` (or after 10 s), with its PSNR against it.
            func shown(against reference: String) throws -> Double {
                display.waitFor({ () -> Double in
                    shots += 1
                    let shot = directory.appendingPathComponent("shot\(shots).png").path
                    try? display.screenshot(to: shot)
                    return (try? VirtualDisplay.psnr(shot, crop: picture, against: reference)) ?? 0
                }, until: { $0 >= 35 })
            }
            let drawn = try shown(against: with)
            #expect(drawn >= 35, "the window's picture: \(drawn) dB against FFmpeg's frame with the track")
            try display.press("v", inWindowTitled: "Reel")
            let hidden = try shown(against: without)
            #expect(hidden >= 35, "after v: \(hidden) dB against the frame without subtitles")
            try display.press("v", inWindowTitled: "Reel")
            #expect(try shown(against: with) >= 35, "a second v did not bring the subtitles back")
            // z ×5: half a second earlier on the clock of the text, so at 2.0 s the karaoke
            // shows as FFmpeg draws it at 1.5 s.
            for _ in 0..<5 { try display.press("z", inWindowTitled: "Reel") }
            let delayed = try reference("delayed.png", "\(SubtitleTests.accurateRGB),setpts=PTS+0.5/TB,subtitles=\(video),setpts=PTS-0.5/TB")
            #expect(try shown(against: delayed) >= 35, "z ×5 did not show the subtitles 0.5 s earlier")
            // j: the only track, then none.
            try display.press("j", inWindowTitled: "Reel")
            #expect(try shown(against: without) >= 35, "j did not cycle to no subtitles")
            print("subtitles in the window: \(String(format: "%.1f", drawn)) dB against FFmpeg's subtitles filter; v, z, j followed")
        }

        /// Picture-in-picture shows what the main window shows: the subtitles drawn in.
        @Test(.timeLimit(.minutes(2))) func pictureInPictureShowsTheSubtitlesToo() throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let (video, _) = try SubtitleFixtures.matroskaWithStyledASS()
            let directory = try Paths.temporaryDirectory()
            func reference(_ name: String, _ filter: String) throws -> String { try Self.frame50(of: video, filter: filter, to: directory.appendingPathComponent(name).path) }
            let with = try reference("with.png", "\(SubtitleTests.accurateRGB),subtitles=\(video)")
            let without = try reference("without.png", SubtitleTests.accurateRGB)
            let (player, small) = try display.play(["--pause", "--pip", "--start", "2", video], title: "picture-in-picture")
            defer { player.stop() }
            // The small window scales the picture (240×180 here): compared at its size.
            let quality = display.waitFor({ () -> (with: Double, without: Double) in
                let shot = directory.appendingPathComponent("pip.png").path
                try? display.screenshot(to: shot)
                let crop = (small.x, small.y, small.width, small.height)
                return ((try? VirtualDisplay.psnr(shot, crop: crop, against: with)) ?? 0, (try? VirtualDisplay.psnr(shot, crop: crop, against: without)) ?? 0)
            }, until: { $0.with >= 30 && $0.with > $0.without + 3 })
            #expect(quality.with >= 30 && quality.with > quality.without + 3,
                    "picture-in-picture: \(quality.with) dB against FFmpeg's frame with the subtitles, \(quality.without) dB without")
            print("subtitles in picture-in-picture: \(String(format: "%.1f", quality.with)) dB with them, \(String(format: "%.1f", quality.without)) dB without")
        }

        /// A 360° view in the window carries its subtitles on the view, as headless does.
        @Test(.timeLimit(.minutes(2))) func theWindowsPanoramaViewCarriesTheSubtitles() throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let (_, subtitles) = try SubtitleFixtures.videoWithSubRip()
            let sphere = try PanoRenderTests.clip()
            let directory = try Paths.temporaryDirectory()
            // The window of a 768×384 sphere shows a 768×432 view; the same view headless, with the text and without.
            let view = ["--projection", "equirect", "--yaw", "30"]
            func headless(_ name: String, _ extra: [String]) throws -> String {
                let path = directory.appendingPathComponent(name).path
                let made = try Processes.run(Paths.reel, ["play", "--headless", "--untimed", "--view-size", "768x432", "--duration", "1.8",
                                                          "--snapshot", "1.5:\(path)"] + view + extra + [sphere])
                try #require(made.status == 0, "\(made.stderr)")
                return path
            }
            let with = try headless("with.png", ["--sub-file", subtitles]), without = try headless("without.png", [])
            let (player, window) = try display.play(["--pause", "--start", "1.5", "--sub-file", subtitles] + view + [sphere])
            defer { player.stop() }
            let quality = display.waitFor({ () -> (with: Double, without: Double) in
                let shot = directory.appendingPathComponent("shot.png").path
                try? display.screenshot(to: shot)
                let crop = (window.x, window.y, 768, 432)
                return ((try? VirtualDisplay.psnr(shot, crop: crop, against: with)) ?? 0, (try? VirtualDisplay.psnr(shot, crop: crop, against: without)) ?? 0)
            }, until: { $0.with >= 30 && $0.with > $0.without + 3 })
            #expect(quality.with >= 30 && quality.with > quality.without + 3,
                    "the window's 360° view: \(quality.with) dB against the headless view with subtitles, \(quality.without) dB without")
            print("subtitles over the window's 360° view: \(String(format: "%.1f", quality.with)) dB with them, \(String(format: "%.1f", quality.without)) dB without")
        }
    }
}
