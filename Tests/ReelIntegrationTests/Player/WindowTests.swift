import Foundation
import Reel
import Testing

extension LightPlaybackTests {
    /// The real SDL window on a real X server (Xvfb), looked at with a screenshot.
    @Suite(.serialized) struct WindowTests {
        @Test(.timeLimit(.minutes(2)), arguments: PlaybackEngineKind.allCases)
        func theWindowShowsTheFrameAtTheStartTime(engine: PlaybackEngineKind) throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let clip = try Fixtures.seekable()
            let directory = try Paths.temporaryDirectory()
            let reference = directory.appendingPathComponent("reference.png").path
            // ffmpeg's frame at 3.2 s, turned into RGB with libswscale's accurate path (its
            // default path takes chroma from the nearest sample).
            let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-ss", "3.2", "-i", clip, "-frames:v", "1", "-vf",
                                                    "scale=flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgb24", reference])
            try #require(made.status == 0, "\(made.stderr)")

            let log = directory.appendingPathComponent("player.log").path
            let player = try BackgroundProcess(Paths.reel, ["play", "--pause", "--start", "3.2", "--engine", engine.rawValue, clip], environment: ["DISPLAY": display.name],
                                               errorPath: log)
            defer { player.stop() }
            let window = try #require(try display.window(titled: "Reel"),
                                      "no window appeared; the player \(player.isRunning ? "runs" : "ended with \(player.exitStatus ?? -1)"): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            #expect(window.width == 320 && window.height == 240 + 28, "window \(window)")
            let shot = directory.appendingPathComponent("shot.png").path
            let quality = try display.settledPSNR(shot: shot, crop: (window.x, window.y, 320, 240), against: reference, threshold: 35)
            #expect(quality >= 35, "screenshot PSNR \(quality) dB")
            print("\(engine): window screenshot against ffmpeg's frame at 3.2 s: PSNR \(String(format: "%.1f", quality)) dB")

            // The bar at the bottom shows progress in red, about a third along (3.2 of 10 s): the
            // red cells of the bar, averaged into ten.
            let bar = directory.appendingPathComponent("bar.png").path
            func redCells(in screenshot: String) throws -> Int {
                let cut = try Processes.run("ffmpeg", ["-v", "error", "-y", "-i", screenshot, "-vf",
                                                       "crop=320:2:\(window.x):\(window.y + 241),scale=10:1:flags=area,format=rgb24", "-f", "rawvideo", bar])
                try #require(cut.status == 0, "\(cut.stderr)")
                let pixels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: bar)))
                try #require(pixels.count == 30)
                return stride(from: 0, to: pixels.count, by: 3).filter { pixels[$0] > 150 && pixels[$0 + 1] < 120 }.count
            }
            let red = try redCells(in: shot)
            #expect((2...4).contains(red), "progress cells: \(red) of 10")

            // A click at 80 % of the bar seeks there: the progress follows.
            _ = try Processes.run("xdotool", ["mousemove", "\(window.x + 256)", "\(window.y + 255)", "click", "1"],
                                  timeout: 10, environment: ["DISPLAY": display.name])
            let afterClick = directory.appendingPathComponent("after-click.png").path
            let redAfter = try display.waitFor(timeout: 5, {
                try display.screenshot(to: afterClick)
                return try redCells(in: afterClick)
            }, until: { (7...9).contains($0) })
            #expect((7...9).contains(redAfter), "progress cells after clicking at 80 %: \(redAfter) of 10")

            // q quits.
            _ = try Processes.run("xdotool", ["search", "--name", "Reel", "key", "--window", "%1", "q"], timeout: 10, environment: ["DISPLAY": display.name])
            for _ in 0..<50 where player.isRunning { Thread.sleep(forTimeInterval: 0.1) }
            #expect(!player.isRunning, "q did not quit")
            #expect(player.exitStatus == 0)
        }

        @Test func withoutADisplayItSuggestsHeadless() throws {
            let result = try Processes.run(Paths.reel, ["play", Fixtures.named("h264-baseline-aac.mp4").path], environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
            #expect(result.status == 1)
            #expect(result.stderr.contains("--headless"), "\(result.stderr)")
        }
    }
}
