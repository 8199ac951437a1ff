import Foundation
import Testing

extension LightPlaybackTests {
    /// The keys `.`, `,`, `s` and `?` in a real window under Xvfb.
    @Suite(.serialized) struct WindowKeyTests {
        /// ffmpeg's frame at `time` as RGB, with libswscale's accurate path.
        private func reference(_ clip: String, at time: Double, in directory: URL) throws -> String {
            let path = directory.appendingPathComponent("reference-\(time).png").path
            let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-ss", String(time), "-i", clip, "-frames:v", "1", "-vf",
                                                    "scale=flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgb24", path])
            try #require(made.status == 0, "\(made.stderr)")
            return path
        }

        @Test(.timeLimit(.minutes(2))) func framesStepOnAndBackScreenshotsAreWrittenAndQuestionMarkListsTheKeys() throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let clip = try Fixtures.seekable()
            let directory = try Paths.temporaryDirectory()
            let shots = directory.appendingPathComponent("shots")
            try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
            let (player, window) = try display.play(["--pause", "--start", "2", "--screenshot-dir", shots.path, clip])
            defer { player.stop() }

            /// Presses `s` and returns the screenshot it wrote, once it is whole.
            func screenshot(_ name: String) throws -> String {
                try display.press("s", inWindowTitled: "Reel")
                let path = shots.appendingPathComponent(name).path
                let written = display.waitFor({ (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }) { $0 > 1000 }
                #expect(written > 1000, "no \(name) after s")
                Thread.sleep(forTimeInterval: 0.2)
                return path
            }
            for _ in 0..<3 { try display.press("period", inWindowTitled: "Reel") }
            let onThree = try VirtualDisplay.psnr(try screenshot("reel-shot0001.png"), crop: (0, 0, 320, 240),
                                               against: try reference(clip, at: 2.12, in: directory))
            #expect(onThree >= 40, "three frames on: screenshot PSNR \(onThree) dB against ffmpeg's frame at 2.12 s")
            for _ in 0..<2 { try display.press("comma", inWindowTitled: "Reel") }
            let backTwo = try VirtualDisplay.psnr(try screenshot("reel-shot0002.png"), crop: (0, 0, 320, 240),
                                               against: try reference(clip, at: 2.04, in: directory))
            #expect(backTwo >= 40, "two frames back: screenshot PSNR \(backTwo) dB against ffmpeg's frame at 2.04 s")
            print("window keys: . . . s → PSNR \(String(format: "%.1f", onThree)) dB; , , s → PSNR \(String(format: "%.1f", backTwo)) dB")

            // ? lays the list of keys over the picture, and takes it away again.
            let atFrame = try reference(clip, at: 2.04, in: directory)
            func pictureQuality() throws -> Double {
                let shot = directory.appendingPathComponent("window.png").path
                try display.screenshot(to: shot)
                return try VirtualDisplay.psnr(shot, crop: (window.x, window.y, 320, 240), against: atFrame)
            }
            try display.press("question", inWindowTitled: "Reel")
            let covered = try display.waitFor(pictureQuality) { $0 < 20 }
            #expect(covered < 20, "with the keys listed the picture is covered: PSNR \(covered) dB")
            try display.press("question", inWindowTitled: "Reel")
            let uncovered = try display.waitFor(pictureQuality) { $0 >= 35 }
            #expect(uncovered >= 35, "the list gone, the picture is back: PSNR \(uncovered) dB")
        }
    }
}
