import Foundation
import Reel
import Testing

extension LightPlaybackTests {
    /// `reel play --save-position-on-quit` and resuming, as mpv's watch-later: the picture,
    /// the audio track and the volume where the viewer left them, checked by ffmpeg's
    /// framemd5 of the file and by the sound written out.
    @Suite(.serialized) struct ResumeCommandTests {
        /// 20 s at 25 fps, a keyframe each second, and two audio tracks: 440 Hz, then 880 Hz.
        private func clip() throws -> String {
            try Fixtures.made("resume-two-tones-20s.mkv", [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=20",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=20", "-f", "lavfi", "-i", "sine=frequency=880:sample_rate=48000:duration=20",
                "-map", "0", "-map", "1", "-map", "2", "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        }

        /// The first picture of a y4m file, by ffmpeg's framemd5.
        private func firstPicture(_ y4m: String) throws -> String? {
            try pictures(["-i", y4m, "-frames:v", "1"]).first?.md5
        }

        /// ffmpeg's framemd5 of the pictures `input` names, with their own timestamps in
        /// milliseconds (not moved onto a 1/25 s grid, where the file's 21 ms start would
        /// shift them by one).
        private func pictures(_ input: [String]) throws -> [(pts: Double, md5: String)] {
            let result = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-copyts"] + input
                                           + ["-map", "0:v:0", "-fps_mode", "passthrough", "-enc_time_base:v", "1:1000", "-f", "framemd5", "-"])
            return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
                let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                return (Double(fields[2]).map { $0 / 1000 } ?? .nan, fields[5])
            }
        }

        /// The left channel of what ffmpeg decodes with `arguments`, as floats.
        private func leftChannel(_ arguments: [String], in directory: URL) throws -> [Float] {
            let raw = directory.appendingPathComponent("left-\(UUID().uuidString).f32").path
            let decoded = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y"] + arguments + ["-af", "aformat=channel_layouts=stereo,pan=mono|c0=c0", "-f", "f32le", raw])
            try #require(decoded.status == 0, "\(decoded.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        }

        @Test(.timeLimit(.minutes(2))) func aFileStartsWhereItWasLeftWithItsTrackAndVolume() throws {
            let clip = try clip()
            let directory = try Paths.temporaryDirectory()
            let watch = directory.appendingPathComponent("watch-later").path
            let errors = directory.appendingPathComponent("stderr-1.txt").path

            // Left paused at 12.3 s, on the second audio track, at 40 % volume.
            let first = try BackgroundProcess(Paths.reel, ["play", "--headless", "--stats", "--save-position-on-quit", "--watch-later-dir", watch,
                                                           "--start", "12.3", "--aid", "2", "--volume", "40", "--pause", clip], errorPath: errors)
            defer { first.stop() }
            try #require(waitForText(" shown ", in: errors, timeout: 30) != nil, "no live line: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
            first.interrupt()
            #expect(first.waitForExit(within: 10) && first.exitStatus == 0)
            let saved = try FileManager.default.contentsOfDirectory(atPath: watch)
            try #require(saved.count == 1, "\(saved)")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: watch + "/" + saved[0]))) as? [String: Any]
            let point = json?["point"] as? [String: Any]
            let position = try #require(point?["position"] as? Double, "\(json ?? [:])")
            // The picture on screen: the one covering 12.3 s, which starts at 12.261 s (the
            // video starts at 21 ms, behind the sound's encoder delay).
            #expect(abs(position - 12.261) < 0.001 && point?["audioTrack"] as? Int == 2 && point?["volume"] as? Double == 0.4, "\(json ?? [:])")

            // Played again: from there, once.
            let y4m = directory.appendingPathComponent("resumed.y4m").path
            let wav = directory.appendingPathComponent("resumed.wav").path
            let resumed = try reel("play", "--headless", "--watch-later-dir", watch, "--duration", "1", "--tap", "y4m:\(y4m)", "--audio-out", wav, clip, timeout: 60)
            #expect(resumed.status == 0 && resumed.stderr.contains("reel: resuming at 12."), "\(resumed.stderr)")
            let covering = try #require(try pictures(["-i", clip]).last { $0.pts <= position + 1e-6 })
            #expect(try firstPicture(y4m) == covering.md5, "the first picture is not the file's at \(position) s (\(covering.pts))")
            // The second track's 880 Hz, at a volume of 0.4, a gain of 0.16: against the same
            // second of that track as ffmpeg decodes it, made stereo as Reel makes it.
            let played = try leftChannel(["-i", wav], in: directory)
            try #require(played.count > 4800, "\(played.count) samples")
            let frequency = Double(zip(played, played.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count) / (Double(played.count) / 48_000)
            #expect(abs(frequency - 880) < 30, "\(frequency) Hz")
            let source = try leftChannel(["-ss", String(position), "-t", "1", "-i", clip, "-map", "0:a:1"], in: directory)
            let (peak, sourcePeak) = (played.map(abs).max() ?? 0, source.map(abs).max() ?? 0)
            #expect(abs(Double(peak) - Double(sourcePeak) * 0.16) < Double(sourcePeak) * 0.16 * 0.05, "peak \(peak), the track's \(sourcePeak)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: watch).isEmpty, "the saved position is used once")
        }

        @Test(.timeLimit(.minutes(1))) func aDamagedSavedPositionIsIgnoredWithAWarning() throws {
            let clip = try clip()
            let directory = try Paths.temporaryDirectory()
            let watch = directory.appendingPathComponent("watch-later").path
            try FileManager.default.createDirectory(atPath: watch, withIntermediateDirectories: true)
            let damaged = ResumePoints(directory: watch).path(for: clip)
            try "{\"point\": ".write(toFile: damaged, atomically: true, encoding: .utf8)
            let y4m = directory.appendingPathComponent("start.y4m").path
            let result = try reel("play", "--headless", "--no-audio", "--watch-later-dir", watch, "--duration", "0.5", "--tap", "y4m:\(y4m)", clip, timeout: 60)
            #expect(result.status == 0 && result.stderr.contains("reel: ignoring \(damaged)"), "\(result.stderr)")
            #expect(try firstPicture(y4m) == pictures(["-i", clip]).first?.md5, "not played from the start")
            #expect(FileManager.default.fileExists(atPath: damaged), "a damaged file is left as it is")
        }
    }
}
