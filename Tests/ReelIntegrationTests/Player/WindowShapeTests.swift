import Foundation
import Testing

extension LightPlaybackTests {
    /// The window's shape and place (issue 17 item 2), on a real X server: anamorphic video
    /// at its display aspect ratio, gravity modes against ffmpeg's pad, crop and scale,
    /// mpv's geometry, fullscreen and always-on-top.
    @Suite(.serialized) struct WindowShapeTests {
        /// 2 s of PAL-sized anamorphic MPEG-TS: 720×576 pixels shown 16:9 (sample aspect 64:45).
        static func anamorphic() throws -> String {
            try Fixtures.made("anamorphic-720x576-16x9.ts", [
                "-f", "lavfi", "-i", "testsrc2=size=720x576:rate=25:duration=2,setsar=64/45",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25"])
        }

        /// ffmpeg's frame at `time` of `clip` through `filters`, in RGB as the window converts it.
        static func reference(_ clip: String, at time: String, filters: String) throws -> String {
            let path = try Paths.temporaryDirectory().appendingPathComponent("reference.png").path
            let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-ss", time, "-i", clip, "-frames:v", "1", "-vf",
                                                    "scale=flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgb24,\(filters)", path])
            guard made.status == 0 else { throw TestSetupError(made.stderr) }
            return path
        }

        @Test(.timeLimit(.minutes(2))) func anamorphicVideoOpensAtItsDisplayAspectRatio() throws {
            let clip = try Self.anamorphic()
            let probe = try Processes.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=display_aspect_ratio",
                                                      "-of", "csv=p=0", clip])
            #expect(probe.stdout.split(separator: "\n").first == "16:9")
            let display = try VirtualDisplay()
            defer { display.stop() }
            let (player, window) = try display.play(["--pause", clip])
            defer { player.stop() }
            // ffprobe's 16:9 at the picture's 576 rows.
            #expect(window.width == 1024 && window.height == 576 + 28, "window \(window)")
            let shot = try Paths.temporaryDirectory().appendingPathComponent("shot.png").path
            let widened = try Self.reference(clip, at: "0", filters: "scale=1024:576:flags=bilinear")
            let quality = try display.settledPSNR(shot: shot, crop: (window.x, window.y, 1024, 576), against: widened, threshold: 30, timeout: 10)
            #expect(quality >= 30, "window PSNR \(quality) dB against ffmpeg's frame widened to 1024×576")
            print("anamorphic window against ffmpeg's widened frame: PSNR \(String(format: "%.1f", quality)) dB")
        }

        /// `--aspect 4:3` shows the 16:9 clip at 4:3 instead: a window of 768×576 (576 rows
        /// at 4:3), the picture ffmpeg's `setdar=4/3` frame scaled into it.
        @Test(.timeLimit(.minutes(2))) func aspectShowsThePictureAtTheRatioGiven() throws {
            let clip = try Self.anamorphic()
            let display = try VirtualDisplay()
            defer { display.stop() }
            let (player, window) = try display.play(["--pause", "--aspect", "4:3", clip])
            defer { player.stop() }
            #expect(window.width == 768 && window.height == 576 + 28, "window \(window)")
            let shot = try Paths.temporaryDirectory().appendingPathComponent("shot.png").path
            let narrowed = try Self.reference(clip, at: "0", filters: "setdar=4/3,scale=768:576:flags=bilinear")
            let quality = try display.settledPSNR(shot: shot, crop: (window.x, window.y, 768, 576), against: narrowed, threshold: 30, timeout: 10)
            #expect(quality >= 30, "window PSNR \(quality) dB against ffmpeg's frame at 4:3, 768×576")
            print("--aspect 4:3 window against ffmpeg's setdar=4/3 frame: PSNR \(String(format: "%.1f", quality)) dB")
        }

        @Test(.timeLimit(.minutes(2))) func gravityFitsFillsAndStretchesAndGCyclesIt() throws {
            let clip = try Fixtures.seekable()
            let display = try VirtualDisplay()
            defer { display.stop() }
            let (player, window) = try display.play(["--pause", "--start", "3.2", "--geometry", "640x240", clip])
            defer { player.stop() }
            #expect(window.width == 640 && window.height == 240 + 28, "window \(window)")
            let references = try [
                ("fit", "pad=640:240:160:0:black"),
                ("fill", "crop=320:120:0:60,scale=640:240:flags=bilinear"),
                ("stretch", "scale=640:240:flags=bilinear"),
            ].map { name, filters in
                let path = try Self.reference(clip, at: "3.2", filters: filters)
                let kept = path.replacingOccurrences(of: "reference.png", with: "\(name).png")
                try FileManager.default.moveItem(atPath: path, toPath: kept)
                return (name, kept)
            }
            for (step, expected) in ["fit", "fill", "stretch", "fit"].enumerated() {
                if step > 0 { try display.press("g", inWindowTitled: "Reel") }
                let shot = try Paths.temporaryDirectory().appendingPathComponent("shot-\(step).png").path
                func bestOf(_ qualities: [String: Double]) -> (key: String, value: Double) { qualities.max { $0.value < $1.value }! }
                let qualities = try display.waitFor({
                    try display.screenshot(to: shot)
                    var qualities: [String: Double] = [:]
                    for (name, reference) in references {
                        qualities[name] = try VirtualDisplay.psnr(shot, crop: (window.x, window.y, 640, 240), against: reference)
                    }
                    return qualities
                }, until: { bestOf($0).key == expected && bestOf($0).value >= 30 })
                let best = bestOf(qualities)
                #expect(best.key == expected && best.value >= 30, "step \(step): expected \(expected), PSNR \(qualities)")
                print("gravity \(expected): PSNR \(qualities.mapValues { String(format: "%.1f", $0) })")
            }
        }

        @Test(.timeLimit(.minutes(2))) func geometryPlacesTheWindow() throws {
            let clip = try Fixtures.seekable()
            let display = try VirtualDisplay()
            defer { display.stop() }
            do {
                let (player, window) = try display.play(["--pause", "--geometry", "400x300+50+60", clip])
                defer { player.stop() }
                #expect(window.x == 50 && window.y == 60 && window.width == 400 && window.height == 300 + 28, "window \(window)")
            }
            do {
                let (player, window) = try display.play(["--pause", "--geometry", "200-0-0", clip])
                defer { player.stop() }
                // 200 wide, 150 high at 4:3, in the bottom right corner of the 1280×720 screen.
                #expect(window.width == 200 && window.height == 150 + 28 && window.x == 1280 - 200 && window.y == 720 - 178, "window \(window)")
            }
            let refused = try reel("play", "--headless", "--geometry", "640x360", clip)
            #expect(refused.status != 0 && refused.stderr.contains("--headless"), "\(refused.stderr)")
            let malformed = try reel("play", "--geometry", "640x", clip)
            #expect(malformed.status != 0 && malformed.stderr.contains("--geometry"), "\(malformed.stderr)")
        }

        /// Fullscreen is granted by a window manager: this display runs one.
        @Test(.timeLimit(.minutes(2))) func fullscreenFillsTheScreenAndOnTopStaysAbove() throws {
            let clip = try Fixtures.seekable()
            let display = try VirtualDisplay(windowManager: true)
            defer { display.stop() }
            do {
                let (player, window) = try display.play(["--pause", "--fs", "--ontop", clip])
                defer { player.stop() }
                let settled = try display.waitFor({ try display.window(titled: "Reel") ?? window }) { $0.width == 1280 && $0.height == 720 }
                #expect(settled.width == 1280 && settled.height == 720, "fullscreen window \(settled)")
                let script = """
                    import sys
                    from Xlib import display
                    d = display.Display(sys.argv[1])
                    w = d.create_resource_object('window', int(sys.argv[2]))
                    state = w.get_full_property(d.intern_atom('_NET_WM_STATE'), 0)
                    print(' '.join(d.get_atom_name(a) for a in (state.value if state else [])))
                    """
                let id = try Processes.run("xdotool", ["search", "--onlyvisible", "--name", "Reel"], environment: ["DISPLAY": display.name])
                let states = try Processes.run("/usr/bin/python3", ["-c", script, display.name,
                                                                    String(id.stdout.split(separator: "\n").first ?? "0")])
                #expect(states.stdout.contains("_NET_WM_STATE_ABOVE") && states.stdout.contains("_NET_WM_STATE_FULLSCREEN"),
                        "window states: \(states.stdout) \(states.stderr)")
            }
            // f leaves fullscreen: the window's own size again.
            let (player, opened) = try display.play(["--pause", "--fs", clip])
            defer { player.stop() }
            _ = try display.waitFor({ try display.window(titled: "Reel") ?? opened }) { $0.width == 1280 && $0.height == 720 }
            try display.press("f", inWindowTitled: "Reel")
            let window = try display.waitFor({ try display.window(titled: "Reel") ?? opened }) { $0.width == 320 }
            #expect(window.width == 320 && window.height == 240 + 28, "after f: \(window)")
        }
    }
}
