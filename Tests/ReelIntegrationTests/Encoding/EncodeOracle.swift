import Foundation
import Testing

/// What ffprobe says about an encoded file: the independent judge of `reel encode`.
enum EncodeOracle {
    struct Packet {
        var pts: Int64?
        var dts: Int64?
        var size: Int
        var isKeyframe: Bool
        var ptsSeconds: Double?
    }

    static func streamFields(_ path: String, _ fields: String, inputOptions: [String] = []) throws -> [String: String] {
        let result = try Processes.run("ffprobe", ["-v", "error"] + inputOptions + ["-select_streams", "v:0", "-show_entries", "stream=\(fields)", "-of", "default=nw=1", path])
        guard result.status == 0 else { throw TestSetupError(result.stderr) }
        var values: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        return values
    }

    /// Video packets in file (decode) order.
    static func packets(_ path: String, inputOptions: [String] = []) throws -> [Packet] {
        let result = try Processes.run("ffprobe", ["-v", "error"] + inputOptions + ["-select_streams", "v:0", "-show_entries", "packet=pts,dts,size,flags,pts_time",
                                                                                     "-of", "csv=p=0", path])
        guard result.status == 0 else { throw TestSetupError(result.stderr) }
        return result.stdout.split(separator: "\n").map { line in
            // ffprobe prints the fields in its own order: pts, pts_time, dts, size, flags.
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Packet(pts: Int64(fields[0]), dts: Int64(fields[2]), size: Int(fields[3]) ?? 0, isKeyframe: fields[4].hasPrefix("K"),
                          ptsSeconds: Double(fields[1]))
        }
    }

    /// Keyframe flags and picture types of the decoded frames, in display order.
    static func frames(_ path: String, inputOptions: [String] = []) throws -> [(isKeyframe: Bool, pictureType: String)] {
        let result = try Processes.run("ffprobe", ["-v", "error"] + inputOptions + ["-select_streams", "v:0", "-show_entries", "frame=key_frame,pict_type",
                                                                                     "-of", "csv=p=0", path])
        guard result.status == 0 else { throw TestSetupError(result.stderr) }
        return result.stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: ",").map(String.init)
            return (fields.first == "1", fields.count > 1 ? fields[1] : "?")
        }
    }

    /// ffmpeg decodes the whole file; what it printed at error level (empty when clean).
    static func decodingErrors(_ path: String, inputOptions: [String] = []) throws -> String {
        let result = try Processes.run("ffmpeg", ["-v", "error", "-nostdin"] + inputOptions + ["-i", path, "-f", "null", "-"])
        return result.status == 0 ? result.stderr : "exit \(result.status): \(result.stderr)"
    }

    /// A 720p source with motion, as y4m: ffmpeg's testsrc2 (its moving parts over a still
    /// background, as in most camera pictures).
    static func source720p(seconds: Int = 10) throws -> String {
        try Fixtures.made("encode-testsrc2-720p-\(seconds)s.y4m", ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=\(seconds)", "-pix_fmt", "yuv420p"])
    }
}
