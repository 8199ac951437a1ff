import Foundation
import Reel
import Testing

extension PlaybackTests {
    /// Chapters (issue 17 item 5): what ffprobe lists, seeking to them from the API, the
    /// command line and the window's keys, and the title in the window's bar.
    @Suite(.serialized) struct ChapterTests {
        static let clip = Fixtures.named("h264-high-bframes-flac-chapters.mkv").path

        @Test(.timeLimit(.minutes(1))) func chaptersAreFFprobesAndSeekingLandsOnTheirStart() async throws {
            let probe = try Processes.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", Self.clip])
            let listed = try #require((try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])?["chapters"] as? [[String: Any]])
            let player = Player.headless()
            let events = EventLog(player)
            try await player.open(Self.clip)
            #expect(player.chapters.count == listed.count && listed.count == 2)
            for (mine, theirs) in zip(player.chapters, listed) {
                #expect(abs(mine.startTime - (Double(theirs["start_time"] as? String ?? "") ?? -1)) < 1e-6)
                #expect(abs(mine.endTime - (Double(theirs["end_time"] as? String ?? "") ?? -1)) < 1e-6)
                #expect(mine.title == (theirs["tags"] as? [String: String])?["title"])
            }
            #expect(player.currentChapter == 0)
            player.seek(toChapter: 1)
            let landed = await events.wait(timeout: 10) { event in
                if case .seekCompleted(let position) = event { abs(position - 1) < 0.001 } else { false }
            }
            #expect(landed, "no seek completed at the second chapter's start (1 s): \(events.all)")
            #expect(player.currentChapter == 1)
            player.stop()
        }

        @Test(.timeLimit(.minutes(1))) func theCommandLineStartsAtAChapter() throws {
            let result = try reel("play", "--headless", "--stats", "--chapter", "2", "--duration", "0.5", Self.clip, timeout: 30)
            #expect(result.status == 0, "\(result.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let position = (report?["statistics"] as? [String: Any])?["position"] as? Double ?? -1
            #expect(position >= 1.45 && position < 1.7, "played 0.5 s from the second chapter (1 s), ended at \(position)")
            let missing = try reel("play", "--headless", "--chapter", "3", Self.clip, timeout: 30)
            #expect(missing.status != 0 && missing.stderr.contains("the input has 2 chapters"), "\(missing.stderr)")
        }

        @Test(.timeLimit(.minutes(2))) func pageDownAndUpMoveBetweenChaptersAndTheBarNamesThem() throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let directory = try Paths.temporaryDirectory()
            let report = directory.appendingPathComponent("report.json").path
            let log = directory.appendingPathComponent("player.log").path
            let player = try BackgroundProcess(Paths.reel, ["play", "--pause", "--stats", Self.clip], environment: ["DISPLAY": display.name],
                                               outputPath: report, errorPath: log)
            defer { player.stop() }
            // A CI run once saw no window in 30 s here: say whether reel still ran and what it printed.
            let window = try #require(try display.window(titled: "Reel"),
                                      "no window; reel \(player.isRunning ? "runs" : "ended with \(player.exitStatus ?? -1)"): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            // The bar's middle, where the chapter's title is written after the time, read by
            // tesseract (scaled up four times, dark on light, as it reads best).
            func title(_ name: String) throws -> String {
                let shot = directory.appendingPathComponent("\(name).png").path, area = directory.appendingPathComponent("\(name)-title.png").path
                try display.screenshot(to: shot)
                let cut = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", shot, "-vf",
                                                       "crop=150:20:\(window.x + 140):\(window.y + 240 + 5),scale=iw*4:ih*4:flags=bicubic,negate,format=gray", area])
                try #require(cut.status == 0, "\(cut.stderr)")
                let read = try Processes.run("tesseract", [area, "-", "--psm", "7"])
                try #require(read.status == 0, "tesseract: \(read.stderr)")
                return read.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            // A word's tail, whatever case: one letter misread at its start ("0pening") is
            // still the title, and the other title has none of it.
            func shows(_ text: String, _ title: String) -> Bool { text.lowercased().contains(title.dropFirst()) }
            func read(_ name: String, _ expected: String) throws -> String { try display.waitFor({ try title(name) }) { shows($0, expected) } }
            let opening = try read("opening", "Opening")
            #expect(shows(opening, "Opening"), "the first chapter's bar reads '\(opening)'")
            try display.press("Next", inWindowTitled: "Reel")
            let ending = try read("ending", "Ending")
            #expect(shows(ending, "Ending"), "after Page Down the bar reads '\(ending)'")
            try display.press("Prior", inWindowTitled: "Reel")
            let again = try read("opening-again", "Opening")
            #expect(shows(again, "Opening"), "after Page Up the bar reads '\(again)'")
            try display.press("Next", inWindowTitled: "Reel")
            _ = try read("ending-again", "Ending")
            print("chapter titles read from the bar: '\(opening)', '\(ending)', '\(again)'")
            try display.press("q", inWindowTitled: "Reel")
            #expect(player.waitForExit(within: 10), "q did not end reel")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            let position = (json?["statistics"] as? [String: Any])?["position"] as? Double ?? -1
            #expect(abs(position - 1) < 0.05, "paused at the second chapter's start (1 s) after Page Down, was at \(position)")
        }
    }
}
