import Foundation
import Reel
import Testing

extension ServerPlaybackTests {
    /// Talking back to an ONVIF camera (gst-rtsp-server's ONVIF server with a back-channel):
    /// what the camera decodes equals ffmpeg's G.711 encoding and decoding of the tone sent,
    /// sample for sample, and takes the tone's time to arrive (sent in real time, not faster).
    @Suite struct TalkBackTests {
        /// 2 s of a 1 kHz tone at 8 kHz mono, as a WAV file.
        static func tone() throws -> String {
            try Fixtures.made("talk-tone-1khz-2s.wav", ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=8000:duration=2", "-ac", "1", "-c:a", "pcm_s16le"])
        }

        /// `file` through ffmpeg's G.711 encoder and decoder (`pcm_mulaw` or `pcm_alaw`): what
        /// a camera should hear of it.
        static func g711RoundTrip(_ file: String, codec: String) throws -> [Int16] {
            let path = try Paths.temporaryDirectory().appendingPathComponent("round-trip.s16").path
            let format = codec == "PCMU" ? "mulaw" : "alaw"
            let result = try Processes.run("/bin/bash", ["-o", "pipefail", "-c",
                "ffmpeg -v error -nostdin -i '\(file)' -ar 8000 -ac 1 -f \(format) - | ffmpeg -v error -nostdin -y -f \(format) -ar 8000 -ac 1 -i - -f s16le '\(path)'"])
            try #require(result.status == 0, "\(result.stderr)")
            return RawSamples.read(path)
        }

        /// Waits (5 s at most) until the camera has written `count` samples: it writes what it
        /// decodes a little after it arrives (its jitter buffer).
        static func waitUntil(_ camera: OnvifCamera, hears count: Int) throws {
            for _ in 0..<100 where camera.heard().count < count { Thread.sleep(forTimeInterval: 0.05) }
        }

        /// `reel play --talk tone.wav`: the camera's picture plays and the tone goes over UDP
        /// in μ-law; the camera hears every sample of it as ffmpeg's μ-law gives it.
        @Test(.timeLimit(.minutes(2))) func reelPlayTalksAFileToTheCamera() throws {
            let camera = try OnvifCamera(codec: "PCMU")
            defer { camera.stop() }
            let tone = try Self.tone()
            let played = try reel("play", "--headless", "--no-audio", "--talk", tone, "--talk-transport", "udp", "--duration", "6", camera.url(), timeout: 60)
            #expect(played.status == 0, "\(played.stderr.suffix(1500))")
            #expect(played.stderr.contains("talking to the camera (PCMU over UDP)"), "\(played.stderr.suffix(1500))")
            #expect(played.stderr.contains("talk-back sent 2.00 s in 100 packets"), "\(played.stderr.suffix(1500))")
            let expected = try Self.g711RoundTrip(tone, codec: "PCMU")
            try Self.waitUntil(camera, hears: expected.count)
            camera.stop()
            let heard = camera.heard()
            print("talk-back (reel play, PCMU over UDP): the camera heard \(heard.count) samples, \(String(format: "%.1f", RawSamples.frequency(of: heard))) Hz")
            #expect(expected.count == 16000)
            #expect(heard.count == expected.count && RawSamples.firstDifference(heard, expected) == expected.count,
                    "heard \(heard.count) samples of \(expected.count), the first differing at \(RawSamples.firstDifference(heard, expected)); the camera: \(camera.log)")
            #expect(abs(RawSamples.frequency(of: heard) - 1000) < 5)
        }

        /// `Player.talk` over TCP (in the RTSP connection) to a camera that takes A-law, with
        /// push-to-talk let go half a second: the samples as ffmpeg's A-law gives them, all
        /// of them in order, sent over no less than their 2 s.
        @Test(.timeLimit(.minutes(2))) func playerTalksOverTheRTSPConnectionInALaw() async throws {
            let camera = try OnvifCamera(codec: "PCMA")
            defer { camera.stop() }
            let tone = try Self.tone()
            let player = Player.headless(video: HeadlessVideoOutput(), audio: nil)
            defer { player.stop() }
            try await player.open(camera.url())
            player.play()
            let talk = try player.talk(AudioFileTalkSource(path: tone), transport: .tcp)
            // The first packet left once talk returned: from here on, 1.98 s of pacing at least.
            let began = Date()
            #expect(talk.codec == .aLaw && talk.transport == .tcp)
            // Push-to-talk let go for a while and pressed again: a file waits where it is. The
            // sleeps only place the pause; nothing asserted depends on how long they take.
            try await Task.sleep(for: .milliseconds(500))
            #expect(talk.toggleTalking() == false)
            let pausedPackets = talk.statistics.packets
            try await Task.sleep(for: .milliseconds(500))
            #expect(talk.statistics.packets == pausedPackets, "nothing is sent while not talking")
            #expect(talk.toggleTalking() == true)
            await talk.waitUntilFinished()
            let took = Date().timeIntervalSince(began)
            #expect(talk.error == nil && talk.statistics.packets == 100, "\(String(describing: talk.error)) \(talk.statistics)")
            // Paced: the last packet leaves 1.98 s of talking after the first, never sooner, and
            // the talk lingers 0.3 s for the camera to play out before it ends.
            #expect(took >= 1.98 + 0.3, "\(took) s")
            let expected = try Self.g711RoundTrip(tone, codec: "PCMA")
            try Self.waitUntil(camera, hears: expected.count)
            player.stop()
            camera.stop()
            let heard = camera.heard()
            print(String(format: "talk-back (Player.talk, PCMA over TCP): %.2f s to send 2 s; the camera heard %d samples", took, heard.count))
            #expect(heard.count == expected.count && RawSamples.firstDifference(heard, expected) == expected.count,
                    "heard \(heard.count) samples of \(expected.count), the first differing at \(RawSamples.firstDifference(heard, expected)); the camera: \(camera.log)")
        }

        /// `--talk mic`: the recording device through SDL, here SDL's `disk` driver reading the
        /// tone from a file at the device's pace; the camera hears the tone first, as ffmpeg's
        /// μ-law gives it, then the silence the driver records after the file's end.
        @Test(.timeLimit(.minutes(2))) func theMicrophoneGoesToTheCamera() throws {
            let camera = try OnvifCamera(codec: "PCMU")
            defer { camera.stop() }
            let tone = try Self.tone()
            let raw = try Paths.temporaryDirectory().appendingPathComponent("microphone.s16").path
            let converted = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", tone, "-f", "s16le", raw])
            try #require(converted.status == 0, "\(converted.stderr)")
            let played = try Processes.run(Paths.reel, ["play", "--headless", "--no-audio", "--talk", "mic", "--duration", "6", camera.url()], timeout: 60,
                                           environment: ["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILEIN": raw])
            #expect(played.status == 0, "\(played.stderr.suffix(1500))")
            let expected = try Self.g711RoundTrip(tone, codec: "PCMU")
            try Self.waitUntil(camera, hears: expected.count + 1)
            camera.stop()
            let heard = camera.heard()
            print("talk-back (microphone, PCMU): the camera heard \(heard.count) samples")
            #expect(heard.count > expected.count, "\(played.stderr.suffix(800)); the camera: \(camera.log)")
            #expect(RawSamples.firstDifference(heard, expected) == expected.count,
                    "the first differing at \(RawSamples.firstDifference(heard, expected))")
            #expect(heard.dropFirst(expected.count).allSatisfy { abs(Int($0)) <= 8 }, "silence after the tone")
        }

        /// A camera without a back-channel: one clear line and a failing exit, no playback left running.
        @Test(.timeLimit(.minutes(1))) func aCameraWithoutABackChannelSaysSo() throws {
            let camera = try OnvifCamera(codec: "PCMU")
            defer { camera.stop() }
            let played = try reel("play", "--headless", "--no-audio", "--talk", try Self.tone(), camera.url("plain"), timeout: 60)
            #expect(played.status != 0)
            #expect(played.stderr.contains("--talk:") && played.stderr.contains("no audio back-channel"), "\(played.stderr.suffix(800))")
        }
    }
}
