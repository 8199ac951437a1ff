import Foundation
import Reel
@testable import ReelPlayer
import Testing

extension PlaybackTests {
    /// A/V sync measured, not assumed: a clip flashes white and beeps at the start of every
    /// second; headless playback logs when each frame was presented and when each audio
    /// sample was consumed, on the same monotonic device clock.
    ///
    /// Named to run late among the serialized suites (they run in name order): its "idle
    /// machine" case must not run while the suite's parallel work starts up on both cores
    /// (it failed three times in full runs there: one flash of 60 seconds away from its
    /// beep, the median normal; the busy-cores case measures load on purpose).
    @Suite(.serialized) struct SyncMeasurementTests {
        struct Measurement {
            var sync: FlashBeepSync
            var dropped: Int
        }

        private func measure(seconds: Int, engine: PlaybackEngineKind = .ffmpeg, normalization: LoudnessNormalization = .auto) async throws -> Measurement {
            let path = try Fixtures.flashAndBeep(seconds: seconds)
            let video = HeadlessVideoOutput(measureLuma: true)
            let audio = HeadlessAudioOutput(keepSamples: true)
            var configuration = Player.Configuration()
            configuration.engine = .only(engine)
            configuration.normalization = normalization
            let player = Player.headless(configuration: configuration, video: video, audio: audio)
            let events = EventLog(player)
            try await player.open(path)
            player.play()
            #expect(await events.wait(timeout: Double(seconds) + 15) { if case .endOfStream = $0 { true } else { false } })
            let dropped = player.statistics.framesDropped
            player.stop()

            return Measurement(sync: FlashBeepSync(video: video, audio: audio), dropped: dropped)
        }

        private func expectInSync(_ measurement: Measurement, label: String, seconds: Int) {
            let sync = measurement.sync
            #expect(sync.flashes.count >= seconds - 2, "\(label): \(sync.flashes.count) flashes seen")
            #expect(sync.beeps.count >= seconds - 2, "\(label): \(sync.beeps.count) beeps heard")
            let frameDuration = 1.0 / 25
            let offsets = sync.offsets
            let worst = offsets.map(abs).max() ?? .infinity
            let median = offsets.sorted()[offsets.count / 2]
            #expect(worst <= frameDuration, "\(label): worst flash-to-beep offset \(worst * 1000) ms")
            print("A/V sync \(label): video minus audio median \(String(format: "%+.1f", median * 1000)) ms, worst \(String(format: "%.1f", worst * 1000)) ms over \(offsets.count) flashes, \(measurement.dropped) frames dropped")
        }

        /// 20 s of the clip: the policy's drift and underrun cases are checked to the
        /// millisecond on a manual clock (ReelPlayerTests' SyncTests); this is the real
        /// decoder, device clock and machine.
        @Test(.timeLimit(.minutes(2))) func flashesMeetTheirBeeps() async throws {
            expectInSync(try await measure(seconds: 20), label: "idle machine", seconds: 20)
        }

        /// The same through the GStreamer engine (its decoders, Reel's clocks and device),
        /// on 10 s of the clip (the 20 s above measure the shared clocks and device for both).
        @Test(.timeLimit(.minutes(2))) func flashesMeetTheirBeepsThroughGStreamer() async throws {
            expectInSync(try await measure(seconds: 10, engine: .gstreamer), label: "GStreamer engine", seconds: 10)
        }

        /// With loudness normalization (ebur128, a gain, alimiter's 5 ms look-ahead) the
        /// sound stays with the pictures, on 10 s of the clip.
        @Test(.timeLimit(.minutes(2))) func flashesMeetTheirBeepsWithLoudnessNormalization() async throws {
            expectInSync(try await measure(seconds: 10, normalization: .on), label: "loudness normalized", seconds: 10)
        }

        @Test(.timeLimit(.minutes(2))) func syncHoldsWhileBothCoresAreBusy() async throws {
            _ = try Fixtures.flashAndBeep(seconds: 20)
            let load = try CPULoad(cores: 2)
            defer { load.stop() }
            expectInSync(try await measure(seconds: 20), label: "both cores busy", seconds: 20)
        }
    }
}
