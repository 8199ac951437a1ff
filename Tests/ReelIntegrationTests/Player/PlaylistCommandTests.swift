import Foundation
import Reel
import Testing

extension LightPlaybackTests {
    /// `reel play` with several inputs, `--playlist`, `--loop-file` and `--loop-playlist`,
    /// and `<`, `>` and Enter in a window.
    @Suite(.serialized) struct PlaylistCommandTests {
        private let clips: [String]

        init() throws {
            clips = try (0..<3).map(PlaybackTests.PlaylistPlaybackTests.clip)
        }

        private func playing(_ stderr: String) -> [String] {
            stderr.split(separator: "\n").filter { $0.hasPrefix("Playing: ") }.map { String($0.dropFirst("Playing: ".count)) }
        }

        @Test(.timeLimit(.minutes(1))) func severalInputsPlayInOrderAndAFailureIsReported() throws {
            let played = try reel("play", "--headless", "--untimed", clips[0], clips[1], timeout: 30)
            #expect(played.status == 0, "\(played.stderr)")
            #expect(playing(played.stderr) == [clips[0], clips[1]])

            let directory = try Paths.temporaryDirectory()
            let list = directory.appendingPathComponent("list.m3u").path
            let missing = directory.appendingPathComponent("missing.mp4").path
            try "#EXTM3U\n#EXTINF:1,First\n\(clips[0])\nmissing.mp4\n\(clips[2])\n".write(toFile: list, atomically: true, encoding: .utf8)
            let skipped = try reel("play", "--headless", "--untimed", "--playlist", list, timeout: 30)
            #expect(skipped.status == 1, "\(skipped.stderr)")
            #expect(playing(skipped.stderr) == [clips[0], clips[2]], "the relative entry is looked for beside the list: \(skipped.stderr)")
            #expect(skipped.stderr.contains("reel: \(missing): cannot open"), "\(skipped.stderr)")
            #expect(skipped.stderr.contains("1 of the 3 inputs could not be played"), "\(skipped.stderr)")
        }

        @Test(.timeLimit(.minutes(1))) func loopsRepeatAsMpvsDo() throws {
            let frames = try referenceFrames(clips[0]).count
            // --loop-file 2 replays the file in place: three times its frames, one item, through
            // either engine. Each replay flushes GStreamer's appsink, which then rewrote the
            // sample a frame on screen still held (a CRITICAL on stderr).
            for engine in PlaybackEngineKind.allCases {
                let looped = try reel("play", "--headless", "--untimed", "--stats", "--loop-file", "2", "--engine", engine.rawValue, clips[0], timeout: 30)
                #expect(looped.status == 0, "\(engine): \(looped.stderr)")
                #expect(!looped.stderr.contains("CRITICAL"), "\(engine): \(looped.stderr)")
                let report = try JSONSerialization.jsonObject(with: Data(looped.stdout.utf8)) as? [String: Any]
                #expect((report?["statistics"] as? [String: Any])?["frames_shown"] as? Int == 3 * frames, "\(engine): \(looped.stdout)")
            }

            // A bare --loop-playlist is inf: the two items come round again and again until a signal.
            let endless = try reel("play", "--headless", "--untimed", "--loop-playlist", clips[0], clips[1], timeout: 30, signal: ProcessSignal(SIGINT, after: 0.2, onceOutputHas: "Playing: ", count: 4))
            #expect(endless.status == 0, "\(endless.stderr)")
            let items = playing(endless.stderr)
            #expect(items.count >= 4 && items.enumerated().allSatisfy { $0.element == clips[$0.offset % 2] }, "\(items)")
        }

        @Test func badPlaylistsAndLoopsAreRefusedClearly() throws {
            let directory = try Paths.temporaryDirectory()
            let binary = directory.appendingPathComponent("clip.m3u").path
            try FileManager.default.copyItem(atPath: clips[0], toPath: binary)
            let notText = try reel("play", "--headless", "--playlist", binary, timeout: 30)
            #expect(notText.status == 1 && notText.stderr.contains("is not text: not a playlist"), "\(notText.stderr)")
            let nothing = try reel("play", "--headless", timeout: 30)
            #expect(nothing.status != 0 && nothing.stderr.contains("give an input to play"), "\(nothing.stderr)")
            let badLoop = try reel("play", "--headless", "--loop-file=twice", clips[0], timeout: 30)
            #expect(badLoop.status != 0 && badLoop.stderr.contains("--loop-file takes a count, inf or no"), "\(badLoop.stderr)")
        }

        /// Under Xvfb: `>`, `<` and Enter change the item in the same window, which shows
        /// each item's first frame as ffmpeg decodes it.
        @Test(.timeLimit(.minutes(2))) func theKeysMoveAlongThePlaylistInOneWindow() throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let directory = try Paths.temporaryDirectory()
            let references = try clips.indices.map { index in
                let path = directory.appendingPathComponent("first-\(index).png").path
                let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", clips[index], "-frames:v", "1", "-vf",
                                                        "scale=flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgb24", path])
                try #require(made.status == 0, "\(made.stderr)")
                return path
            }
            let (player, window) = try display.play(["--pause"] + clips)
            defer { player.stop() }
            func windowIDs() throws -> [String] {
                try Processes.run("xdotool", ["search", "--onlyvisible", "--name", "Reel"], environment: ["DISPLAY": display.name]).stdout
                    .split(separator: "\n").map(String.init)
            }
            let firstWindow = try windowIDs()
            #expect(firstWindow.count == 1)
            func shows(_ index: Int) throws -> Double {
                try display.waitFor({ () throws -> Double in
                    let shot = directory.appendingPathComponent("shot.png").path
                    try display.screenshot(to: shot)
                    return try VirtualDisplay.psnr(shot, crop: (window.x, window.y, 320, 240), against: references[index])
                }, until: { $0 >= 35 })
            }
            #expect(try shows(0) >= 35, "the first item's first frame")
            for (key, index) in [("greater", 1), ("greater", 2), ("less", 1), ("Return", 2)] {
                try display.press(key, inWindowTitled: "Reel")
                let quality = try shows(index)
                #expect(quality >= 35, "after \(key): item \(index)'s first frame, PSNR \(quality) dB")
                #expect(try windowIDs() == firstWindow, "after \(key): one window, the same")
            }
        }
    }
}
