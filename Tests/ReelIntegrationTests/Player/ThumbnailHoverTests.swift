import Foundation
import Reel
import Testing

extension LightPlaybackTests {
    /// The window's seek bar: a thumbnail of the moment under the pointer, compared with
    /// ffmpeg's picture of that keyframe, and playback's timing while they are made.
    @Suite(.serialized) struct ThumbnailHoverTests {
        /// The pointer over the window's seek bar shows the keyframe at or before that
        /// moment above the bar, and moving on shows the next one.
        @Test(.timeLimit(.minutes(2))) func hoveringTheSeekBarShowsThatMomentsThumbnail() throws {
            let clip = try ThumbnailsCommandTests.clip()
            let display = try VirtualDisplay()
            defer { display.stop() }
            let directory = try Paths.temporaryDirectory()
            let (player, window) = try display.play(["--pause", clip])
            defer { player.stop() }
            try #require(window.width == 640 && window.height == 360 + 28, "window \(window)")
            for fraction in [0.5, 0.2] {
                let time = 30 * fraction
                let keyframe = try #require(try keyframeTimes(clip).last { $0 <= time + 1e-6 })
                let reference = try ThumbnailsCommandTests.reference(clip, at: keyframe, in: directory)
                let pointer = Int(640 * fraction)
                _ = try Processes.run("xdotool", ["mousemove", "\(window.x + pointer)", "\(window.y + 360 + 14)"], timeout: 10, environment: ["DISPLAY": display.name])
                // Where the window draws it: centred on the pointer, 4 pixels above the bar.
                let crop = (window.x + min(max(pointer - 80, 0), 640 - 160), window.y + 360 - 90 - 4, 160, 90)
                let started = monotonicSeconds()
                let shot = directory.appendingPathComponent("hover-\(fraction).png").path
                // Thumbnails are made at nice 15: a loaded CI took up to 4.3 s for one.
                let quality = try display.waitFor(timeout: 30, {
                    try display.screenshot(to: shot)
                    return try VirtualDisplay.psnr(shot, crop: crop, against: reference)
                }, until: { $0 >= 40 })
                print(String(format: "thumbnail at %.0f %% of the bar (%.1f s, keyframe %.1f s): PSNR %.1f dB, on screen within %.2f s of the pointer moving",
                             fraction * 100, time, keyframe, quality, monotonicSeconds() - started))
                #expect(quality >= 40, "the thumbnail at \(time) s against the keyframe at \(keyframe) s: \(quality) dB")
            }
        }

        /// A 1080p file's thumbnail is on screen a moment after the pointer reaches the bar:
        /// the time from moving the pointer (xdotool) to the first screen dump (xwd) that
        /// differs, printed, the thumbnail then checked against ffmpeg's keyframe. The
        /// issue's 150 ms is the idle machine's figure, measured by this test run alone. The
        /// thumbnails' thread runs at nice 15 so that it yields to playback: on a busy machine
        /// it waits for idle time (a loaded hunt saw over a second), so the test bounds only
        /// that the picture comes (10 s).
        @Test(.timeLimit(.minutes(2))) func aThumbnailOf1080pIsOnScreenAMomentAfterThePointer() throws {
            let clip = try Fixtures.made("thumbnails-1080p-20s.mp4", [
                "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=20", "-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-pix_fmt", "yuv420p"])
            let display = try VirtualDisplay()
            defer { display.stop() }
            let directory = try Paths.temporaryDirectory()
            let (player, window) = try display.play(["--pause", "--geometry", "640x360", clip])
            defer { player.stop() }
            try #require(window.width == 640 && window.height == 360 + 28, "window \(window)")
            let dumpPath = directory.appendingPathComponent("screen.xwd").path
            let dump = { () throws -> Data in
                _ = try Processes.run("sh", ["-c", "xwd -root -silent -display \(display.name) > \(dumpPath)"])
                return try Data(contentsOf: URL(fileURLWithPath: dumpPath))
            }
            // The screen as it stays once the window has drawn: two dumps alike in a row.
            var before = try dump()
            before = try display.waitFor(timeout: 10, { (previous: before, now: try dump()) }, until: { $0.previous == $0.now }).now
            let moved = monotonicSeconds()
            _ = try Processes.run("xdotool", ["mousemove", "\(window.x + 320)", "\(window.y + 360 + 14)"], timeout: 10, environment: ["DISPLAY": display.name])
            var shownAfter: Double?
            while shownAfter == nil, monotonicSeconds() - moved < 10 {
                if try dump() != before { shownAfter = monotonicSeconds() - moved }
            }
            let latency = try #require(shownAfter, "nothing changed on screen within 10 s")
            let keyframe = try #require(try keyframeTimes(clip).last { $0 <= 10 + 1e-6 })
            let reference = directory.appendingPathComponent("reference.png").path
            let scale = "scale=160:90:flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgb24"
            let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-ss", String(keyframe), "-i", clip, "-frames:v", "1", "-vf", scale, reference])
            try #require(made.status == 0, "\(made.stderr)")
            let shot = directory.appendingPathComponent("hover.png").path
            let quality = try display.waitFor(timeout: 10, {
                try display.screenshot(to: shot)
                return try VirtualDisplay.psnr(shot, crop: (window.x + 240, window.y + 360 - 94, 160, 90), against: reference)
            }, until: { $0 >= 40 })
            print(String(format: "thumbnail of a 1080p file: on screen %.0f ms after the pointer moved (xdotool and xwd included), PSNR %.1f dB", latency * 1000, quality))
            #expect(quality >= 40, "\(latency) s, \(quality) dB")
        }

        /// Thumbnails made while the pointer sweeps the bar leave the playback's frame
        /// timing as it is: frames dropped and the longest gap between frames, in the same
        /// run, with and without the pointer over the bar.
        @Test(.timeLimit(.minutes(2))) func makingThumbnailsLeavesPlaybackOnTime() throws {
            let clip = try Fixtures.made("thumbnails-720p-8s.mp4", [
                "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=8", "-c:v", "libx264", "-g", "30", "-pix_fmt", "yuv420p"])
            let display = try VirtualDisplay()
            defer { display.stop() }
            let directory = try Paths.temporaryDirectory()
            var figures: [String: (dropped: Int, longest: Double)] = [:]
            for sweeping in [false, true] {
                let report = directory.appendingPathComponent("report-\(sweeping).json").path
                let player = try BackgroundProcess(Paths.reel, ["play", "--stats", "--geometry", "640x360", clip], environment: ["DISPLAY": display.name],
                                                   outputPath: report)
                defer { player.stop() }
                let window = try #require(try display.window(titled: "Reel"))
                if sweeping {
                    // A new moment every 100 ms, all along the bar, while it plays.
                    var step = 0
                    while player.isRunning && step < 60 {
                        let x = window.x + (step * 53) % window.width
                        _ = try Processes.run("xdotool", ["mousemove", "\(x)", "\(window.y + window.height - 10)"], timeout: 10, environment: ["DISPLAY": display.name])
                        Thread.sleep(forTimeInterval: 0.1)
                        step += 1
                    }
                }
                #expect(player.waitForExit(within: 30) && player.exitStatus == 0)
                let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
                let statistics = json?["statistics"] as? [String: Any]
                figures[sweeping ? "sweeping" : "still"] = (statistics?["frames_dropped"] as? Int ?? -1, statistics?["longest_frame_interval"] as? Double ?? -1)
            }
            let (still, sweeping) = (figures["still"]!, figures["sweeping"]!)
            print(String(format: "thumbnails while playing 720p30: dropped %d without, %d with the pointer sweeping; longest frame gap %.3f s without, %.3f s with",
                         still.dropped, sweeping.dropped, still.longest, sweeping.longest))
            // Bounds for a loaded machine, where either run may lose a few frames to others.
            #expect(still.dropped >= 0 && sweeping.dropped >= 0 && sweeping.dropped <= still.dropped + 8, "frames dropped: \(still.dropped) without, \(sweeping.dropped) with")
            #expect(sweeping.longest > 0 && sweeping.longest <= max(still.longest, 0.15) * 2, "longest gap: \(still.longest) s without, \(sweeping.longest) s with")
        }
    }
}
