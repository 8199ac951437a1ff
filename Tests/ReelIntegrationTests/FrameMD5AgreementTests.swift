import Foundation
import Testing

/// `reel decode --framemd5` against `ffmpeg -f framemd5` on every fixture: the same frames,
/// the same bytes, the same timestamps.
@Suite(.serialized) struct FrameMD5AgreementTests {
    @Test(arguments: Fixtures.all.filter(\.hasVideo))
    func videoMatchesFFmpeg(_ fixture: Fixture) throws {
        let ours = try reel("decode", "--framemd5", fixture.path)
        try #require(ours.status == 0, "reel failed: \(ours.stderr)")
        // Decoding is compared, not display: ffmpeg would otherwise turn rotated pictures upright.
        let theirs = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-noautorotate", "-i", fixture.path,
                                                  "-map", "0:v:0", "-f", "framemd5", "-"])
        try #require(theirs.status == 0, "ffmpeg failed: \(theirs.stderr)")
        try expectSameChecksums(ours.stdout, theirs.stdout, fixture: fixture)
    }

    @Test(arguments: Fixtures.all.filter(\.hasAudio))
    func audioMatchesFFmpegInTheSameSampleFormat(_ fixture: Fixture) throws {
        let ours = try reel("decode", "--framemd5", "--stream", "a", fixture.path)
        try #require(ours.status == 0, "reel failed: \(ours.stderr)")
        let codec = try #require(ours.stdout.split(separator: "\n").first { $0.hasPrefix("#codec_id 0: ") }?.dropFirst(13))
        let theirs = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", fixture.path, "-map", "0:a:0",
                                                  "-c:a", String(codec), "-f", "framemd5", "-"])
        try #require(theirs.status == 0, "ffmpeg failed: \(theirs.stderr)")
        try expectSameChecksums(ours.stdout, theirs.stdout, fixture: fixture)
    }

    @Test func threadCountsDoNotChangeTheResult() throws {
        let fixture = Fixtures.named("h264-main-bframes-aac.mov")
        let single = try reel("decode", "--framemd5", "--threads", "1", fixture.path)
        let many = try reel("decode", "--framemd5", "--threads", "4", fixture.path)
        #expect(single.status == 0 && many.status == 0)
        #expect(single.stdout == many.stdout)
    }

    @Test func unavailableHardwareFallsBackToSoftware() throws {
        let fixture = Fixtures.named("h264-baseline-aac.mp4")
        let software = try reel("decode", "--framemd5", fixture.path)
        let hardware = try reel("decode", "--framemd5", "--hwaccel", "auto", "--log-level", "warning", fixture.path)
        #expect(hardware.status == 0)
        #expect(hardware.stdout == software.stdout)
    }

    /// Every line but `#software` (which names the program) must be identical; for a
    /// variable-frame-rate input, whose ffmpeg timestamps are rounded to a guessed rate,
    /// the frames, sizes and hashes must be.
    private func expectSameChecksums(_ ours: String, _ theirs: String, fixture: Fixture) throws {
        let keep = { (text: String) in text.split(separator: "\n").filter { !$0.hasPrefix("#software") }.map(String.init) }
        var mine = keep(ours), reference = keep(theirs)
        try #require(reference.count > 10, "ffmpeg produced too little: \(theirs)")
        if !fixture.constantFrameRate {
            let hashOnly = { (lines: [String]) in lines.map { $0.hasPrefix("#") ? $0 : String($0.split(separator: ",").suffix(2).joined(separator: ",")) } }
            mine = hashOnly(mine)
            reference = hashOnly(reference)
        }
        #expect(mine.count == reference.count, "\(fixture.name): \(mine.count) lines, ffmpeg \(reference.count)")
        let mismatches = zip(mine, reference).enumerated().filter { $0.element.0 != $0.element.1 }
        for (index, pair) in mismatches.prefix(3) {
            Issue.record("\(fixture.name) line \(index): reel `\(pair.0)` ffmpeg `\(pair.1)`")
        }
        #expect(mismatches.count == 0, "\(fixture.name): lines differ")
    }
}
