import Foundation
import Reel
@testable import ReelPlayer
import ReelCore
import Testing

extension PlaybackTests {
    /// A live input played behind its newest media by the target latency: caught up at
    /// 1.1× with the pitch kept after a pause, jumped ahead beyond the bound, against ffmpeg
    /// sending a test picture and a 1 kHz tone over SRT in real time.
    @Suite(.serialized) struct LiveLatencyTests {
        /// ffmpeg listening on SRT `port`, sending `seconds` of a 25 fps picture and a 1 kHz
        /// tone as MPEG-TS in real time; returns once its socket is open.
        private func liveSource(port: Int, seconds: Int) throws -> BackgroundProcess {
            let sender = try BackgroundProcess("ffmpeg", [
                "-v", "error", "-nostdin", "-re",
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000",
                "-t", "\(seconds)", "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "25", "-c:a", "aac",
                "-f", "mpegts", "srt://127.0.0.1:\(port)?mode=listener",
            ])
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, sender.isRunning {
                if try Processes.run("ss", ["-Hunl", "sport = :\(port)"]).stdout.contains(":\(port)") { return sender }
                Thread.sleep(forTimeInterval: 0.02)
            }
            throw TestSetupError("ffmpeg is not listening on UDP port \(port)")
        }

        private func adjustments(_ events: EventLog) -> [LiveAdjustment] {
            events.all.compactMap { if case .liveAdjusted(let adjustment) = $0 { adjustment } else { nil } }
        }

        /// The strongest frequency from 900 to 1200 Hz (2 Hz steps) in `samples` at 48 kHz (Goertzel).
        private func dominantFrequency(_ samples: ArraySlice<Float>) -> Double {
            var best = (frequency: 0.0, power: -1.0)
            for frequency in stride(from: 900.0, through: 1200.0, by: 2) {
                let coefficient = 2 * cos(2 * Double.pi * frequency / 48000)
                var (previous, beforePrevious) = (0.0, 0.0)
                for sample in samples {
                    let current = Double(sample) + coefficient * previous - beforePrevious
                    beforePrevious = previous
                    previous = current
                }
                let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
                if power > best.power { best = (frequency, power) }
            }
            return best.frequency
        }

        @Test(.timeLimit(.minutes(2))) func aPausedStreamCatchesUpAtATenthFasterWithItsPitchKept() async throws {
            let port = LocalPorts.random()
            let sender = try liveSource(port: port, seconds: 45)
            defer { sender.stop() }
            let directory = try Paths.temporaryDirectory()
            let wavPath = directory.appendingPathComponent("heard.wav").path
            let soundFile = try SoundFile(path: wavPath)
            let audio = HeadlessAudioOutput(soundFile: soundFile)
            let player = Player.headless(audio: audio)
            let target = player.configuration.liveLatency.target
            let events = EventLog(player)
            try await player.open("srt://127.0.0.1:\(port)?mode=caller")
            player.play()
            try await Task.sleep(for: .seconds(3))
            let before = try #require(player.statistics.liveLatency)
            #expect(before < target + 0.1, "playing on target before the pause: \(before) s")
            // 1.5 s behind: caught up at 1.1× in about 14 s (the tone needs seconds of it).
            // Paused, the live edge runs on: resumed once the live thread reports 1.5 s behind.
            player.pause()
            #expect(await events.wait(timeout: 15) { if case .liveLatency(let latency) = $0 { latency >= target + 1.5 } else { false } },
                    "the latency did not grow to \(target + 1.5) s while paused")
            let beforeResuming = adjustments(events).count
            player.play()
            let resumedAt = monotonicSeconds()
            var backAt: Double?
            var caughtUpFrom: Double?
            while monotonicSeconds() - resumedAt < 30 {
                try await Task.sleep(for: .milliseconds(50))
                if caughtUpFrom == nil, adjustments(events).contains(where: { if case .catchingUp = $0 { true } else { false } }) {
                    caughtUpFrom = monotonicSeconds()
                }
                if caughtUpFrom != nil, let latency = player.statistics.liveLatency, latency <= target + 0.1 {
                    backAt = monotonicSeconds()
                    break
                }
            }
            try await Task.sleep(for: .seconds(1))
            let pulls = audio.pullLog
            player.stop()
            try soundFile.finish()

            // The first play may jump over what the opening gathered; after the pause, catching up.
            let seen = Array(adjustments(events).dropFirst(beforeResuming))
            let catchUp = try #require(caughtUpFrom, "no catch-up: \(seen)")
            let back = try #require(backAt, "not back within target + 0.1 s in 30 s: \(seen)")
            print(String(format: "live catch-up: %.1f s behind after the pause; back within %.0f ms of the %.1f s target %.1f s after playing again; %@",
                         seen.compactMap { if case .catchingUp(let latency, _) = $0 { latency } else { nil } }.first ?? 0,
                         100.0, target, back - resumedAt, "\(seen)"))
            #expect(back - resumedAt < 25)
            #expect(seen.contains { if case .catchingUp(_, let rate) = $0 { rate == 1.1 } else { false } }, "\(seen)")
            #expect(!seen.contains { if case .jumped = $0 { true } else { false } }, "1.5 s behind is caught up, not jumped: \(seen)")

            // The sound heard while catching up: the tone at 1 kHz, not 1.1 kHz.
            let data = try Data(contentsOf: URL(fileURLWithPath: wavPath))
            #expect(data.count > 58 + 48000 * 8 * 15, "\(data.count) bytes of sound")
            let left: [Float] = data.dropFirst(58).withUnsafeBytes { raw in
                let floats = raw.bindMemory(to: Float.self)
                return stride(from: 0, to: floats.count - 1, by: 2).map { floats[$0] }
            }
            func sampleIndex(at time: Double) -> Int {
                guard let pull = pulls.last(where: { $0.deviceTime <= time }) else { return 0 }
                return pull.sampleIndex + Int((time - pull.deviceTime) * 48000)
            }
            let (from, to) = (sampleIndex(at: catchUp + 0.5), min(sampleIndex(at: back - 0.5), left.count))
            #expect(to - from > 48000 * 10, "catching up lasted \(Double(to - from) / 48000) s of sound")
            let frequencies = stride(from: from, to: to - 12_000, by: 12_000).map { dominantFrequency(left[$0..<($0 + 12_000)]) }
            let near = frequencies.filter { abs($0 - 1000) <= 10 }.count
            let median = frequencies.sorted()[frequencies.count / 2]
            print("tone while catching up: median \(median) Hz over \(frequencies.count) windows of 0.25 s; \(near) within 10 Hz of 1 kHz")
            #expect(abs(median - 1000) <= 4)
            #expect(Double(near) >= 0.9 * Double(frequencies.count))
        }

        @Test(.timeLimit(.minutes(1))) func farBehindJumpsAheadToTheTargetAtOnce() async throws {
            let port = LocalPorts.random()
            let sender = try liveSource(port: port, seconds: 30)
            defer { sender.stop() }
            var configuration = Player.Configuration()
            configuration.liveLatency = LiveLatency(target: 0.3, jumpAbove: 2)
            let video = HeadlessVideoOutput()
            let player = Player.headless(configuration: configuration, video: video)
            let events = EventLog(player)
            try await player.open("srt://127.0.0.1:\(port)?mode=caller")
            player.play()
            try await Task.sleep(for: .seconds(2))
            player.pause()
            try await Task.sleep(for: .seconds(4))
            let beforeResuming = adjustments(events).count
            player.play()
            let resumedAt = monotonicSeconds()
            var backAt: Double?
            while monotonicSeconds() - resumedAt < 5 {
                try await Task.sleep(for: .milliseconds(50))
                if adjustments(events).dropFirst(beforeResuming).contains(where: { if case .jumped(let latency) = $0 { latency > 3.5 } else { false } }),
                   let latency = player.statistics.liveLatency, latency <= 0.4 {
                    backAt = monotonicSeconds()
                    break
                }
            }
            let statistics = player.statistics
            player.stop()
            let seen = Array(adjustments(events).dropFirst(beforeResuming))
            let back = try #require(backAt, "no jump back on target within 5 s: \(seen)")
            print(String(format: "live jump: 4 s behind, on target %.2f s after playing again; %@", back - resumedAt, "\(seen)"))
            // A second to measure, then at once (CI: 1.21 to 1.25 s); catching up at a tenth faster
            // would take 37 s, and is refused below too.
            #expect(back - resumedAt < 3, "a second to measure, then at once")
            #expect(!seen.contains { if case .catchingUp = $0 { true } else { false } }, "beyond the bound, a jump: \(seen)")
            #expect(statistics.liveJumps >= 1)
        }
    }
}
