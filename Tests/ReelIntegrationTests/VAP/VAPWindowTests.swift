import Foundation
import Testing

extension LightPlaybackTests {
    /// `reel vap play` in a real window (Xvfb): the animation over a checkerboard, space
    /// pausing it, q quitting.
    @Suite(.serialized) struct VAPWindowTests {
        /// Gray levels of a screenshot (converted by ffmpeg) in a rectangle, row by row.
        static func gray(_ shot: String, _ rect: (x: Int, y: Int, width: Int, height: Int)) throws -> [UInt8] {
            let raw = shot + ".gray"
            let result = try Processes.run("ffmpeg", ["-v", "error", "-y", "-i", shot, "-vf", "crop=\(rect.width):\(rect.height):\(rect.x):\(rect.y),format=gray",
                                                      "-f", "rawvideo", raw])
            guard result.status == 0 else { throw TestSetupError("ffmpeg: \(result.stderr)") }
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        }

        @Test(.timeLimit(.minutes(2))) func theAnimationShowsOverACheckerboardAndPauses() throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let path = try Paths.sharedFixtures("vap").appendingPathComponent("demo.mp4").path
            let directory = try Paths.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let events = directory.appendingPathComponent("events.jsonl").path
            let player = try BackgroundProcess(Paths.reel, ["vap", "play", "--loops", "0", "--events", path],
                                               environment: ["DISPLAY": display.name], outputPath: events)
            defer { player.stop() }
            let window = try #require(try display.window(titled: "demo.mp4"), "no window appeared")
            #expect(window.width == 736, "window \(window)")
            Thread.sleep(forTimeInterval: 1.5)
            try display.press("space", inWindowTitled: "demo.mp4")
            try #require(waitForText("\"event\": \"paused\"", in: events, timeout: 30) != nil, "no paused event")
            // Paused: three screenshots one after the other show the same middle (each takes a
            // tenth of a second or more; the animation moves every 40 ms).
            let first = directory.appendingPathComponent("paused-1.png").path, second = directory.appendingPathComponent("paused-2.png").path
            let third = directory.appendingPathComponent("paused-3.png").path
            let middle = (window.x + 270, window.y + 200, 200, 180)
            for shot in [first, second, third] { try display.screenshot(to: shot) }
            let shown = try Self.gray(first, middle), later = try Self.gray(second, middle)
            #expect(try Self.gray(third, middle) == later, "the picture moved while paused")

            // The transparent top left corner is a checkerboard of 16-pixel squares.
            let corner = try Self.gray(first, (window.x, window.y, 32, 32))
            #expect(corner.count == 32 * 32)
            if corner.count == 32 * 32 {
                #expect(abs(Int(corner[4 * 32 + 4]) - 204) <= 2 && abs(Int(corner[4 * 32 + 20]) - 153) <= 2
                        && abs(Int(corner[20 * 32 + 4]) - 153) <= 2 && abs(Int(corner[20 * 32 + 20]) - 204) <= 2,
                        "corner: \(corner[4 * 32 + 4]) \(corner[4 * 32 + 20]) \(corner[20 * 32 + 4]) \(corner[20 * 32 + 20])")
            }
            // The opaque middle is the animation, not the checkerboard; paused, it stays still.
            let checkerLevels = shown.filter { abs(Int($0) - 204) <= 1 || abs(Int($0) - 153) <= 1 }.count
            #expect(checkerLevels < shown.count / 4, "the middle looks like the checkerboard")
            #expect(shown == later, "the picture moved while paused")

            try display.press("q", inWindowTitled: "demo.mp4")
            for _ in 0..<50 where player.isRunning { Thread.sleep(forTimeInterval: 0.1) }
            #expect(player.exitStatus == 0)
            let log = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
            #expect(log.contains("\"event\": \"paused\"") && log.contains("\"event\": \"completed\""), "events: \(log.suffix(300))")
        }
    }
}
