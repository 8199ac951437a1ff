import Foundation
import Testing

/// `reel probe --json` against `ffprobe -show_format -show_streams -show_chapters`, field by
/// field, on every fixture.
@Suite(.serialized) struct ProbeAgreementTests {
    @Test(arguments: Fixtures.all)
    func agreesWithFFprobe(_ fixture: Fixture) throws {
        let ours = try reelProbe(fixture.path)
        let theirs = try ffprobe(fixture.path)
        var comparison = JSONComparison()

        comparison.compare(ours["format"], theirs["format"], at: "format",
                           keys: ["filename", "format_name", "format_long_name", "start_time", "duration", "size", "bit_rate", "nb_streams", "tags"])
        let ourStreams = ours["streams"] as? [[String: Any]] ?? []
        let theirStreams = theirs["streams"] as? [[String: Any]] ?? []
        #expect(ourStreams.count == theirStreams.count, "stream count")
        for (mine, reference) in zip(ourStreams, theirStreams) {
            let at = "stream \(reference["index"] ?? "?")"
            comparison.compare(mine, reference, at: at, keys: [
                "index", "codec_type", "codec_name", "codec_long_name", "profile", "level", "time_base", "start_time", "duration",
                "bit_rate", "nb_frames", "width", "height", "sample_aspect_ratio", "display_aspect_ratio", "pix_fmt",
                "bits_per_raw_sample", "color_space", "color_range", "color_primaries", "color_transfer", "field_order",
                "r_frame_rate", "avg_frame_rate", "sample_fmt", "sample_rate", "channels", "channel_layout", "disposition", "tags",
            ])
            if let language = (reference["tags"] as? [String: Any])?["language"] {
                comparison.compare(mine["language"], language, at: "\(at).language")
            }
            let sideData = reference["side_data_list"] as? [[String: Any]] ?? []
            if let rotation = sideData.compactMap({ $0["rotation"] }).first {
                comparison.compare(mine["rotation"], rotation, at: "\(at).rotation")
            }
            if let stereo = sideData.first(where: { $0["side_data_type"] as? String == "Stereo 3D" }) {
                comparison.compare((mine["stereo3d"] as? [String: Any])?["type"], stereo["type"] as Any, at: "\(at).stereo3d.type")
            }
        }
        let ourChapters = ours["chapters"] as? [[String: Any]] ?? []
        let theirChapters = theirs["chapters"] as? [[String: Any]] ?? []
        #expect(ourChapters.count == theirChapters.count, "chapter count")
        for (mine, reference) in zip(ourChapters, theirChapters) {
            comparison.compare(mine, reference, at: "chapter", keys: ["id", "time_base", "start", "end", "start_time", "end_time", "tags"])
        }

        for difference in comparison.differences { Issue.record("\(fixture.name): \(difference)") }
        // Not a vacuous pass: the comparison covered the fields that matter.
        #expect(comparison.comparedCount >= 20, "only \(comparison.comparedCount) fields compared")
    }

    @Test func seesRotationStereoAndChapters() throws {
        let rotated = try reelProbe(Fixtures.named("h264-rotated-90.mp4").path)
        #expect(((rotated["streams"] as? [[String: Any]])?[0]["rotation"] as? Double).map(abs) == 90)
        let mkv = try reelProbe(Fixtures.named("h264-high-bframes-flac-chapters.mkv").path)
        let chapters = mkv["chapters"] as? [[String: Any]] ?? []
        #expect(chapters.compactMap { ($0["tags"] as? [String: String])?["title"] } == ["Opening", "Ending"])
        let video = (mkv["streams"] as? [[String: Any]])?[0]
        #expect((video?["stereo3d"] as? [String: Any])?["type"] as? String == "top and bottom")
        let audio = (mkv["streams"] as? [[String: Any]])?[1]
        #expect(audio?["language"] as? String == "fra")
    }

    @Test func printsAReadableTable() throws {
        let result = try reel("probe", Fixtures.named("hevc-main10.mkv").path)
        #expect(result.status == 0)
        #expect(result.stdout.contains("hevc (Main 10)"))
        #expect(result.stdout.contains("320×240"))
        #expect(result.stdout.contains("yuv420p10le"))
        #expect(result.stdout.contains("transfer smpte2084"))
    }

    private func reelProbe(_ path: String) throws -> [String: Any] {
        let result = try reel("probe", "--json", path)
        try #require(result.status == 0, "reel probe failed: \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
    }

    private func ffprobe(_ path: String) throws -> [String: Any] {
        let result = try Processes.run("ffprobe", ["-v", "error", "-of", "json", "-show_format", "-show_streams", "-show_chapters", path])
        try #require(result.status == 0, "ffprobe failed: \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
    }
}

/// Compares our typed JSON with ffprobe's, where ffprobe prints most numbers as strings.
struct JSONComparison {
    var differences: [String] = []
    var comparedCount = 0

    /// Compares `keys` that both objects have.
    mutating func compare(_ ours: Any?, _ theirs: Any?, at path: String, keys: [String]) {
        guard let ours = ours as? [String: Any], let theirs = theirs as? [String: Any] else {
            differences.append("\(path): missing")
            return
        }
        for key in keys {
            guard let reference = theirs[key] else { continue }
            if let reference = reference as? String, ["unknown", "N/A", "0/0"].contains(reference) {
                if ours[key] != nil, !(ours[key] is NSNull) { differences.append("\(path).\(key): ffprobe says unknown, we say \(ours[key]!)") }
                continue
            }
            if key == "level", (reference as? Int) == -99 { continue }
            compare(ours[key], reference, at: "\(path).\(key)")
        }
    }

    mutating func compare(_ ours: Any?, _ reference: Any, at path: String) {
        comparedCount += 1
        guard let ours else {
            differences.append("\(path): we have nothing, ffprobe has \(reference)")
            return
        }
        switch reference {
        case let dictionary as [String: Any]:
            compare(ours, dictionary, at: path, keys: Array(dictionary.keys))
        case let text as String:
            if !(ours is String), let number = ours as? NSNumber {
                guard let value = Double(text), abs(value - number.doubleValue) <= max(1e-6, abs(value) * 1e-9) else {
                    differences.append("\(path): we say \(number), ffprobe says \(text)")
                    return
                }
            } else if "\(ours)" != text {
                differences.append("\(path): we say \(ours), ffprobe says \(text)")
            }
        case let number as NSNumber:
            let value = (ours as? NSNumber)?.doubleValue ?? ((ours as? Bool).map { $0 ? 1 : 0 } ?? .nan)
            if value != number.doubleValue { differences.append("\(path): we say \(ours), ffprobe says \(number)") }
        default:
            differences.append("\(path): cannot compare \(reference)")
        }
    }
}
