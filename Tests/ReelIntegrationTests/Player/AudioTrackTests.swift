import Foundation
import Reel
import Testing

extension PlaybackTests {
    /// Audio tracks: listed as ffprobe sees them, chosen by number or language, switched
    /// in place while playing with no gap in the sound; through either engine.
    @Suite(.serialized) struct AudioTrackTests {
        /// The tone's frequency in `samples` (interleaved stereo at 48 kHz), by counting
        /// upward zero crossings of the left channel.
        private func frequency(_ samples: ArraySlice<Float>) -> Double {
            toneFrequency(firstChannel(samples, of: 2), rate: 48_000)
        }

        /// The longest run of silence (both channels under 1/1000) after the sound first
        /// starts, in samples per channel.
        private func longestSilence(_ samples: [Float]) -> Int {
            guard let first = samples.firstIndex(where: { abs($0) > 0.01 }) else { return samples.count / 2 }
            var longest = 0, run = 0
            for index in stride(from: first - first % 2, to: samples.count - 1, by: 2) {
                if abs(samples[index]) < 0.001 && abs(samples[index + 1]) < 0.001 { run += 1; longest = max(longest, run) } else { run = 0 }
            }
            return longest
        }

        private func configuration(_ engine: PlaybackEngineKind) -> Player.Configuration {
            var configuration = Player.Configuration()
            configuration.engine = .only(engine)
            return configuration
        }

        @Test(arguments: PlaybackEngineKind.allCases) func tracksAreListedAsFFprobeSeesThem(engine: PlaybackEngineKind) async throws {
            let path = try Fixtures.twoAudioLanguages()
            let player = Player.headless(configuration: configuration(engine))
            try await player.open(path)
            let tracks = player.tracks
            #expect(tracks.map(\.id) == ["video-1", "audio-1", "audio-2"])
            #expect(tracks.map(\.codec) == ["h264", "aac", "aac"])
            let probe = try Processes.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries",
                                                      "stream=index:stream_tags=language:stream_disposition=default", "-of", "csv=p=0", path])
            let expected = probe.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
            let audio = tracks.filter { $0.type == .audio }
            #expect(audio.map { [String($0.streamIndex), $0.isDefault ? "1" : "0", $0.language ?? ""] } == expected, "ffprobe: \(expected)")
            #expect(player.currentAudioTrack?.language == "eng", "the default track plays")
            player.stop()
        }

        @Test(.timeLimit(.minutes(1)), arguments: PlaybackEngineKind.allCases) func aTrackIsChosenByNumberOrLanguage(engine: PlaybackEngineKind) async throws {
            let path = try Fixtures.twoAudioLanguages()
            for (request, expected) in [(TrackRequest.number(2), "fre"), (.automatic(languages: ["fr", "en"]), "fre"),
                                        (.automatic(languages: ["jpn"]), "eng"), (.automatic(), "eng")] {
                var configuration = configuration(engine)
                configuration.audioTrack = request
                let audio = RecordingAudioOutput()
                let player = Player(configuration: configuration, videoOutput: { nil }, audioOutput: { audio })
                try await player.open(path)
                #expect(player.currentAudioTrack?.language == expected, "\(request)")
                player.play()
                #expect(await waitForPosition(player, 0.6), "\(request): did not play")
                player.stop()
                let heard = frequency(audio.samples.dropLast(48_000 / 10 * 2).suffix(48_000 / 5 * 2))
                #expect(abs(heard - (expected == "eng" ? 440 : 880)) < 30, "\(request): heard \(heard) Hz")
            }
        }

        /// An application's stream index that names no audio stream is an error at open,
        /// never a crash.
        @Test(.timeLimit(.minutes(1)), arguments: PlaybackEngineKind.allCases) func anIndexThatIsNoAudioStreamIsAnError(engine: PlaybackEngineKind) async throws {
            let path = try Fixtures.twoAudioLanguages()
            let player = Player.headless(configuration: configuration(engine))
            await #expect(throws: (any Error).self) { try await player.open(path, audioTrack: 7) }
            player.stop()
        }

        /// `reel play --aid` and `--alang`: a number that no track has is said once and the
        /// picture plays on; forms mpv does not take are refused.
        @Test(.timeLimit(.minutes(1))) func theCommandLineTakesMPVsTrackOptions() throws {
            let path = try Fixtures.twoAudioLanguages()
            let missing = try reel("play", "--headless", "--aid", "3", "--duration", "0.5", path, timeout: 30)
            #expect(missing.status == 0 && missing.stderr.contains("--aid 3: the input has 2 audio tracks; playing without sound"), "\(missing.stderr)")
            let french = try reel("play", "--headless", "--alang", "fr,en", "--duration", "0.5", path, timeout: 30)
            #expect(french.status == 0 && french.stderr.isEmpty, "\(french.stderr)")
            for (arguments, message) in [(["--aid", "0"], "--aid takes a number from 1, auto or no"),
                                         (["--aid", "1", "--alang", "en"], "--alang chooses among the tracks that --aid 1 already chose")] {
                let refused = try Processes.run(Paths.reel, ["play", "--headless"] + arguments + [path])
                #expect(refused.status != 0 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
            }
        }

        /// Switched while playing: the new tone within a moment, no gap in the sound over
        /// 100 ms (issue 17), the picture going on without a stall.
        @Test(.timeLimit(.minutes(1)), arguments: PlaybackEngineKind.allCases) func switchingWhilePlayingLeavesNoGap(engine: PlaybackEngineKind) async throws {
            let path = try Fixtures.twoAudioLanguages()
            let audio = RecordingAudioOutput()
            let video = RecordingVideoOutput()
            let player = Player(configuration: configuration(engine), videoOutput: { video }, audioOutput: { audio })
            try await player.open(path)
            player.play()
            #expect(await waitForPosition(player, 1.2))
            let before = audio.samples.count
            let french = try #require(player.tracks.first { $0.language == "fre" })
            try await player.selectAudioTrack(french.streamIndex)
            #expect(player.currentAudioTrack == french)
            #expect(await waitForPosition(player, 2.4))
            let position = player.currentTime ?? 0
            player.stop()

            let samples = audio.samples
            let gap = Double(longestSilence(samples)) / 48
            print("\(engine): audio track switch: longest silence \(String(format: "%.1f", gap)) ms, longest frame interval \(String(format: "%.0f", (player.statistics.longestFrameInterval ?? 0) * 1000)) ms")
            #expect(gap < 100, "the sound stopped for \(gap) ms")
            #expect(abs(frequency(samples[(before - 48_000 / 5 * 2)..<before]) - 440) < 30, "English before")
            #expect(abs(frequency(samples.dropLast(48_000 / 10 * 2).suffix(48_000 / 5 * 2)) - 880) < 30, "French after")
            #expect(position > 2.2 && position < 2.8, "the position went on: \(position)")
            #expect((player.statistics.longestFrameInterval ?? 1) < 0.3)
        }
    }
}
