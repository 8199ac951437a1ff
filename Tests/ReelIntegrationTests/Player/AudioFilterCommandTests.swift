import Foundation
import Testing

/// `reel play --normalize`, `--af` and `--volume-gain`: the sound written out, measured
/// by ffmpeg's ebur128 and compared with ffmpeg's own filters on the same file.
@Suite(.serialized) struct AudioFilterCommandTests {
    /// 30 s of a quiet tone, then 30 s of a loud one (stereo, 48 kHz): a programme
    /// whose loudness jumps by 20 LU.
    private func programme() throws -> String {
        try Fixtures.made("loudness-quiet-loud-60s.mkv", [
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=30,volume=-8dB[a];sine=frequency=440:sample_rate=48000:duration=30,volume=12dB[b];[a][b]concat=n=2:v=0:a=1,aformat=channel_layouts=stereo[out0]",
            "-c:a", "flac"])
    }

    /// 10 s of a beep of 200 ms every second (stereo, 48 kHz), whose timing can be read.
    private func beeps() throws -> String {
        try Fixtures.made("beeps-10s.mkv", [
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=10,volume='if(lt(mod(t,1),0.2),1,0)':eval=frame,aformat=channel_layouts=stereo",
            "-c:a", "flac"])
    }

    /// Plays `clip` without a window or a clock, its sound written to a WAV file.
    private func played(_ clip: String, _ options: [String]) throws -> String {
        let wav = try Paths.temporaryDirectory().appendingPathComponent("played.wav").path
        let result = try Processes.run(Paths.reel, ["play", "--headless", "--untimed", "--audio-out", wav] + options + [clip], timeout: 120)
        try #require(result.status == 0, "\(result.stderr)")
        return wav
    }

    /// ffmpeg's EBU R128 summary: integrated loudness (LUFS) and true peak (dBTP).
    private func loudness(_ path: String) throws -> (integrated: Double, truePeak: Double) {
        let result = try Processes.run("ffmpeg", ["-v", "info", "-nostdin", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"])
        let summary = result.stderr.components(separatedBy: "Summary:").last ?? ""
        let number = { (label: String) -> Double? in
            summary.range(of: label).flatMap { range in Double(summary[range.upperBound...].drop { $0 == " " }.prefix { "-0123456789.".contains($0) }) }
        }
        return (try #require(number("I:"), "\(result.stderr.suffix(800))"), try #require(number("Peak:"), "\(result.stderr.suffix(800))"))
    }

    /// The left channel as floats, as ffmpeg decodes it (with `filters` when given).
    private func samples(_ path: String, filters: String? = nil) throws -> [Float] {
        let raw = try Paths.temporaryDirectory().appendingPathComponent("left.f32").path
        let chain = (filters.map { $0 + "," } ?? "") + "aformat=sample_fmts=flt:sample_rates=48000:channel_layouts=stereo,pan=mono|c0=c0"
        let decoded = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", path, "-af", chain, "-f", "f32le", raw])
        try #require(decoded.status == 0, "\(decoded.stderr)")
        return try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// How many samples `played` is behind `reference` (0 to 4800): the lag at which their
    /// first 0.2 s differ least.
    private func bestLag(_ played: [Float], against reference: [Float]) -> Int {
        let window = min(9600, reference.count)
        func difference(_ lag: Int) -> Float {
            guard played.count >= lag + window else { return .infinity }
            var total: Float = 0
            for index in 0..<window { total += abs(played[lag + index] - reference[index]) }
            return total
        }
        return (0...4800).min { difference($0) < difference($1) } ?? 0
    }

    /// The sample each beep starts at: the first above a tenth of the loudest beep's
    /// peak in its second, after silence.
    private func onsets(_ samples: [Float]) -> [Int] {
        stride(from: 0, to: samples.count - 48_000, by: 48_000).compactMap { start in
            let second = samples[start..<(start + 48_000)]
            let peak = second.map(abs).max() ?? 0
            guard peak > 0 else { return nil }
            return second.firstIndex { abs($0) > peak / 10 }
        }
    }

    @Test(.timeLimit(.minutes(3))) func normalizingBringsAQuietAndALoudHalfToMinus16LUFSOnTime() throws {
        let clip = try programme()
        let source = try loudness(clip)
        let plain = try played(clip, ["--normalize", "off"])
        let normalized = try played(clip, ["--normalize", "on"])
        let (before, after) = (try loudness(plain), try loudness(normalized))
        print(String(format: "normalize: the file %.1f LUFS, true peak %.1f dBTP; played %.1f LUFS; normalized %.1f LUFS, true peak %.1f dBTP",
                     source.integrated, source.truePeak, before.integrated, after.integrated, after.truePeak))
        #expect(abs(before.integrated + 16) > 3, "the file is not at the target already: \(before.integrated) LUFS")
        #expect(abs(after.integrated + 16) <= 1, "integrated \(after.integrated) LUFS")
        #expect(after.truePeak <= -1, "true peak \(after.truePeak) dBTP")
        // Each beep starts where it does without normalizing, within the limiter's 5 ms and a sample.
        let beeps = try beeps()
        let (plainOnsets, normalizedOnsets) = (onsets(try samples(try played(beeps, []))), onsets(try samples(try played(beeps, ["--normalize", "on"]))))
        #expect(plainOnsets.count == 10 && normalizedOnsets.count == 10, "\(plainOnsets.count), \(normalizedOnsets.count) beeps")
        let shifts = zip(plainOnsets, normalizedOnsets).map { $1 - $0 }
        #expect(shifts.allSatisfy { $0 >= -1 && $0 <= 241 }, "onsets moved by \(shifts) samples")
    }

    @Test(.timeLimit(.minutes(2))) func audioFiltersAreFFmpegsAndTheGainIsDecibels() throws {
        let clip = try beeps()
        let filters = "equalizer=f=440:t=q:w=1:g=-6,acompressor=threshold=-20dB:ratio=4"
        let filtered = try samples(try played(clip, ["--af", filters]))
        let ffmpeg = try samples(clip, filters: filters)
        // The sound written starts after the device's first buffer (10 ms of silence, with
        // or without filters): compared from where it lines up with ffmpeg's.
        let lag = bestLag(filtered, against: ffmpeg)
        let aligned = Array(filtered.dropFirst(lag))
        try #require(aligned.count >= ffmpeg.count - 4800, "\(aligned.count) and \(ffmpeg.count) samples from \(lag)")
        let worst = zip(aligned, ffmpeg).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-4, "largest difference from ffmpeg's filters: \(worst)")
        let plain = try samples(try played(clip, []))
        let louder = try samples(try played(clip, ["--volume-gain", "6"]))
        let ratio = zip(louder, plain).filter { abs($0.1) > 0.01 }.map { $0.0 / $0.1 }
        #expect(!ratio.isEmpty && ratio.allSatisfy { abs($0 - 1.9953) < 1e-3 }, "+6 dB is ×1.9953: \(ratio.prefix(3))")
        let refused = try reel("play", "--headless", "--af", "nosuchfilter=1", clip)
        #expect(refused.status != 0 && refused.stderr.contains("--af nosuchfilter=1"), "\(refused.stderr)")
    }
}
