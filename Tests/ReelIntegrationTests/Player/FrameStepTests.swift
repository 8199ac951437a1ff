import Foundation
import Reel
import Testing

extension PlaybackTests {
    /// mpv's `.` and `,`, `s` and `l` through the player's API, against ffmpeg's decode of
    /// the same file (framemd5) and its own PNG of the frame.
    @Suite(.serialized) struct FrameStepTests {
        /// Waits until `video` has shown more than `count` frames.
        private func waitForFrame(after count: Int, _ video: RecordingVideoOutput) async -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if video.count > count { return true }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return false
        }

        /// A player paused on the exact frame at `start`, with its events.
        private func openPaused(at start: Double) async throws -> (Player, RecordingVideoOutput, EventLog) {
            let video = RecordingVideoOutput()
            let player = Player(videoOutput: { video }, audioOutput: { HeadlessAudioOutput() })
            let events = EventLog(player)
            try await player.open(try Fixtures.seekable(), startingAt: start)
            #expect(await events.wait { if case .firstFrame = $0 { true } else { false } }, "no first frame")
            return (player, video, events)
        }

        /// 30 steps on from 1.96 s (across three keyframes, with B-frames): each shows the
        /// next frame ffmpeg decodes, and the player stays paused where the frame is.
        @Test(.timeLimit(.minutes(1))) func stepsOnShowEachNextFrameAndStayPaused() async throws {
            let reference = try referenceFrames(try Fixtures.seekable())
            let (player, video, _) = try await openPaused(at: 1.96)
            let first = try #require(reference.firstIndex { abs($0.pts - 1.96) < 0.001 })
            #expect(video.shown.last?.md5 == reference[first].md5)
            for step in 1...30 {
                let count = video.count
                player.stepForward()
                #expect(await waitForFrame(after: count, video), "step \(step) showed nothing")
                #expect(video.shown.last?.md5 == reference[first + step].md5, "step \(step): pts \(video.shown.last?.pts ?? -1)")
                #expect(abs((player.currentTime ?? -1) - reference[first + step].pts) < 0.001)
            }
            try await Task.sleep(for: .milliseconds(200))
            #expect(video.count == 31, "nothing more is shown while paused")
            #expect(player.state == .ready || player.state == .paused)

            // Playing again goes on from the stepped frame, the audio brought back to it.
            // Judged against the wall time that passed, which a loaded machine may stretch.
            let playedAt = monotonicSeconds()
            player.play()
            try await Task.sleep(for: .milliseconds(1500))
            let position = player.currentTime ?? 0, played = monotonicSeconds() - playedAt
            #expect(position > reference[first + 30].pts + played - 0.3 && position < reference[first + 30].pts + played + 0.3,
                    "position \(position) after \(played) s from \(reference[first + 30].pts)")
            let offset = player.statistics.avOffset ?? 1
            #expect(abs(offset) < 0.045, "A-V offset \(offset) after playing on from steps")
            player.stop()
        }

        /// 30 steps back from 3.0 s: each lands on the frame before, across keyframes
        /// (every 12 frames) where the decoder starts from the keyframe before.
        @Test(.timeLimit(.minutes(1))) func stepsBackLandOnThePreviousFrame() async throws {
            let reference = try referenceFrames(try Fixtures.seekable())
            let (player, video, events) = try await openPaused(at: 3.0)
            let first = try #require(reference.firstIndex { abs($0.pts - 3.0) < 0.001 })
            for step in 1...30 {
                let seeks = events.count { if case .seekCompleted = $0 { true } else { false } }
                player.stepBackward()
                #expect(await events.wait { _ in events.count { if case .seekCompleted = $0 { true } else { false } } > seeks },
                        "step back \(step) completed no seek")
                #expect(video.shown.last?.md5 == reference[first - step].md5,
                        "step back \(step): showed pts \(video.shown.last?.pts ?? -1), expected \(reference[first - step].pts)")
            }
            // At the first frame a step back stays there.
            player.seek(to: 0, mode: .exact)
            #expect(await events.wait { if case .seekCompleted(let position) = $0 { position == 0 } else { false } }, "no seek to the start")
            let count = video.count
            player.stepBackward()
            try await Task.sleep(for: .milliseconds(300))
            #expect(video.count == count && video.shown.last?.md5 == reference[0].md5)
            player.stop()
        }

        /// `s`: the frame on screen, at the video's size, as the first free reel-shotNNNN.png;
        /// the picture is ffmpeg's own PNG of that frame.
        @Test(.timeLimit(.minutes(1))) func screenshotsAreTheFrameOnScreenUnderMPVsNames() async throws {
            let clip = try Fixtures.seekable()
            let (player, _, _) = try await openPaused(at: 4.2)
            let directory = try Paths.temporaryDirectory()
            let first = try player.screenshot(inDirectory: directory.path)
            #expect((first as NSString).lastPathComponent == "reel-shot0001.png")
            try Data().write(to: directory.appendingPathComponent("reel-shot0002.png"))
            let second = try player.screenshot(inDirectory: directory.path)
            #expect((second as NSString).lastPathComponent == "reel-shot0003.png", "the first free number")
            player.stop()

            let probe = try Processes.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", first])
            #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "320,240")
            let reference = directory.appendingPathComponent("reference.png").path
            _ = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-ss", "4.2", "-i", clip, "-frames:v", "1", "-vf",
                                             "scale=flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgb24", reference])
            let psnr = try VirtualDisplay.psnr(first, crop: (0, 0, 320, 240), against: reference)
            #expect(psnr >= 40, "screenshot PSNR \(psnr) dB")
            // Before anything is shown there is nothing to write.
            #expect(throws: ScreenshotError.self) { try Player.headless().screenshot(to: directory.appendingPathComponent("none.png").path) }
        }

        /// An A-B loop from 1 s to 2 s: playback reaching B goes back to A's exact frame,
        /// again and again, and shows nothing after B.
        @Test(.timeLimit(.minutes(1))) func anABLoopGoesBackToAAtB() async throws {
            let reference = try referenceFrames(try Fixtures.seekable())
            let (player, video, events) = try await openPaused(at: 0.5)
            player.abLoop = ABLoop(from: 1, to: 2)
            player.play()
            #expect(await events.wait(timeout: 8) { _ in
                events.count { if case .seekCompleted(let position) = $0 { abs(position - 1) < 0.001 } else { false } } >= 2
            }, "two jumps back to A")
            player.stop()
            let shown = video.shown
            #expect(shown.allSatisfy { $0.pts < 2.04 }, "frames after B: \(shown.map(\.pts).filter { $0 >= 2.04 })")
            let atA = try #require(reference.first { abs($0.pts - 1) < 0.001 })
            let landings = shown.indices.dropFirst().filter { shown[$0].pts < shown[$0 - 1].pts }
            #expect(landings.count >= 2)
            for index in landings {
                #expect(shown[index].md5 == atA.md5, "the loop lands on A's frame")
                #expect(shown[index - 1].pts >= 1.99, "left at B, from \(shown[index - 1].pts)")
            }
        }

        /// Muted from the start, the device gets silence while the clock runs.
        @Test(.timeLimit(.minutes(1))) func mutedPlaybackIsSilent() async throws {
            for muted in [true, false] {
                let audio = RecordingAudioOutput()
                let player = Player(videoOutput: { nil }, audioOutput: { audio })
                try await player.open(try Fixtures.seekable())
                player.muted = muted
                player.play()
                #expect(await waitForPosition(player, 0.8), "muted \(muted): did not play")
                player.stop()
                #expect(muted ? audio.peak == 0 : audio.peak > 0.05, "muted \(muted): peak \(audio.peak)")
            }
        }
    }
}

/// A headless device that keeps every sample it was given (interleaved).
final class RecordingAudioOutput: AudioOutput, @unchecked Sendable {
    private let device = HeadlessAudioOutput()
    private let recorded = LockedValue<[Float]>([])
    var samples: [Float] { recorded.copy() }
    var peak: Float { samples.reduce(0) { max($0, abs($1)) } }
    var format: AudioDeviceFormat { device.format }

    func start(render: @escaping @Sendable (UnsafeMutableRawBufferPointer, Double) -> Void) throws {
        try device.start { [recorded] buffer, heardAt in
            render(buffer, heardAt)
            let samples = buffer.bindMemory(to: Float.self)
            recorded.withLock { $0.append(contentsOf: samples) }
        }
    }
    func setPaused(_ paused: Bool) { device.setPaused(paused) }
    func close() { device.close() }
}
