import Foundation
import Reel
import Testing

extension PlaybackTests {
    /// Picture-in-picture on a real X server: the small window, its picture, and switches
    /// that never stall playback.
    @Suite(.serialized) struct PictureInPictureTests {
        static func redThenBlue() throws -> String {
            try Fixtures.made("red-then-blue-10s.mp4", [
                "-f", "lavfi", "-i", "color=c=red:s=320x240:r=25:d=5", "-f", "lavfi", "-i", "color=c=blue:s=320x240:r=25:d=5",
                "-filter_complex", "[0][1]concat=n=2:v=1", "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p"])
        }

        /// The mean red, green and blue of a rectangle of a screenshot.
        private func meanColour(of shot: String, in rect: (x: Int, y: Int, width: Int, height: Int)) throws -> [Double] {
            let pixel = shot + ".rgb"
            _ = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", shot, "-vf",
                                             "crop=\(rect.width):\(rect.height):\(rect.x):\(rect.y),scale=1:1:flags=area,format=rgb24",
                                             "-f", "rawvideo", pixel])
            return try Data(contentsOf: URL(fileURLWithPath: pixel)).prefix(3).map(Double.init)
        }

        /// Waits up to 3 s for the set of shown windows to satisfy `condition`.
        func waitForWindows(_ display: VirtualDisplay, _ condition: ([String]) -> Bool) throws -> Bool {
            for _ in 0..<30 {
                if condition(try display.visibleWindowNames()) { return true }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return false
        }

        @Test(.timeLimit(.minutes(2))) func pShowsTheVideoInASmallWindowAndSwitchesWithoutAGap() throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let clip = try Self.redThenBlue()
            let directory = try Paths.temporaryDirectory()
            let report = directory.appendingPathComponent("report.json").path
            let errors = directory.appendingPathComponent("stderr.txt").path
            let player = try BackgroundProcess(Paths.reel, ["play", "--stats", clip], environment: ["DISPLAY": display.name], outputPath: report,
                                               errorPath: errors)
            defer { player.stop() }
            // Once seen without a window after 30 s (CI, 2026-11-25): what reel said is kept for the next time.
            _ = try #require(try display.window(titled: "red-then-blue"),
                             "no main window appeared; reel \(player.isRunning ? "still runs" : "ended (\(player.exitStatus ?? -1))"): \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
            Thread.sleep(forTimeInterval: 1)

            try display.press("p", inWindowTitled: "red-then-blue")
            let small = try #require(try display.window(titled: "picture-in-picture"), "no picture-in-picture window")
            Thread.sleep(forTimeInterval: 0.3)
            #expect(small.width == 240 && small.height == 180, "picture-in-picture window \(small)")
            let visible = try display.visibleWindowNames()
            #expect(visible.contains { $0.contains("picture-in-picture") })
            #expect(!visible.contains { $0.contains("red-then-blue") }, "the main window should be hidden: \(visible)")
            let redShot = directory.appendingPathComponent("pip-red.png").path
            // The clip is red until 5 s: the small window's first picture may take a moment on a loaded machine.
            let isRed: ([Double]) -> Bool = { colour in colour.count == 3 && colour[0] > 200 && colour[1] < 50 && colour[2] < 50 }
            let red = try display.waitFor(timeout: 3, { () throws -> [Double] in
                try display.screenshot(to: redShot)
                return try meanColour(of: redShot, in: small)
            }, until: isRed)
            #expect(isRed(red), "picture-in-picture at ~2 s shows \(red), not red")

            // Back and forth a few times while playing.
            for _ in 0..<3 {
                try display.press("p", inWindowTitled: "picture-in-picture")
                #expect(try waitForWindows(display) { names in names.contains { $0.contains("red-then-blue") } && !names.contains { $0.contains("picture-in-picture") } },
                        "the main window did not come back")
                Thread.sleep(forTimeInterval: 0.2)
                try display.press("p", inWindowTitled: "red-then-blue")
                #expect(try waitForWindows(display) { names in names.contains { $0.contains("picture-in-picture") } }, "no picture-in-picture again")
                Thread.sleep(forTimeInterval: 0.2)
            }
            // Closing the hidden main window keeps playback going in the small one.
            try display.close(windowTitled: "red-then-blue")
            Thread.sleep(forTimeInterval: 0.3)
            #expect(player.isRunning, "closing the main window during picture-in-picture ended playback")
            // Still in picture-in-picture: from 5 s the video is blue, and so is the small window
            // (waited for: on a loaded machine the switches above take a varying time).
            let blueShot = directory.appendingPathComponent("pip-blue.png").path
            func isBlue(_ colour: [Double]) -> Bool { colour.count == 3 && colour[2] > 200 && colour[0] < 50 && colour[1] < 50 }
            let blue = try display.waitFor(timeout: 8, {
                try display.screenshot(to: blueShot)
                return try meanColour(of: blueShot, in: small)
            }, until: isBlue)
            #expect(isBlue(blue), "picture-in-picture after the video's 5 s shows \(blue), not blue")

            for _ in 0..<150 where player.isRunning { Thread.sleep(forTimeInterval: 0.1) }
            #expect(player.exitStatus == 0)
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            let statistics = try #require(json?["statistics"] as? [String: Any])
            let longest = statistics["longest_frame_interval"] as? Double ?? 1
            print("picture-in-picture: 7 switches, longest interval between presented frames \(String(format: "%.1f", longest * 1000)) ms, \(statistics["frames_dropped"] ?? "?") dropped, \(statistics["frames_shown"] ?? "?") shown")
            // No frame skipped during a switch, and no stall a viewer would see: loaded CIs saw
            // gaps of 88 and 124 ms (a late wake-up beside the parallel suites) against 40 ms frames.
            #expect(statistics["frames_shown"] as? Int == 250 && statistics["frames_dropped"] as? Int == 0, "\(statistics)")
            #expect(longest < 0.25, "a gap of \(longest) s: playback stalled during a switch")
        }
    }
}

extension PlaybackTests.PictureInPictureTests {
    @Test(.timeLimit(.minutes(1)), arguments: PlaybackEngineKind.allCases) func pipStartsInTheSmallWindow(engine: PlaybackEngineKind) throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        let player = try BackgroundProcess(Paths.reel, ["play", "--pip", "--engine", engine.rawValue, "--duration", "3", try Self.redThenBlue()],
                                           environment: ["DISPLAY": display.name])
        defer { player.stop() }
        _ = try #require(try display.window(titled: "picture-in-picture"), "no picture-in-picture window")
        #expect(try waitForWindows(display) { names in
            names.contains { $0.contains("picture-in-picture") } && !names.contains { $0.contains("red-then-blue") }
        }, "with --pip only the small window shows")
        for _ in 0..<100 where player.isRunning { Thread.sleep(forTimeInterval: 0.1) }
        #expect(player.exitStatus == 0)
    }
}

extension PlaybackTests.PictureInPictureTests {
    @Test(.timeLimit(.minutes(1))) func closingTheMainWindowOutsidePictureInPictureQuits() throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        // Looped, the clip never ends by itself: only the close can end the player, however
        // long a loaded machine takes to act on it. Loaded runs saw a first close not acted
        // on (1 in 8; the stacks showed every thread idle, none stopping: the event never
        // came), as a click on a window that has just appeared can be: the close is asked
        // again every 5 s, as a user would, and how many it took is printed.
        let player = try BackgroundProcess(Paths.reel, ["play", "--loop-file", "inf", try Self.redThenBlue()], environment: ["DISPLAY": display.name])
        defer { player.stop() }
        _ = try #require(try display.window(titled: "red-then-blue"), "no main window appeared")
        var closes = 0, ended = false
        while !ended && closes < 6 {
            try display.close(windowTitled: "red-then-blue")
            closes += 1
            ended = player.waitForExit(within: 5)
        }
        print("closing the main window: the player ended after \(closes) close\(closes == 1 ? "" : "s")")
        #expect(ended, "closing the window did not quit; windows: \((try? Processes.run("xdotool", ["search", "--name", "red-then-blue"], environment: ["DISPLAY": display.name]).stdout) ?? "?"); stacks:\n\(ended ? "" : player.stacks)")
        #expect(player.exitStatus == 0)
    }
}
