import ArgumentParser
import Foundation
import Reel

/// How `reel play` and `reel wall` record: `--record-dir` as an NVR keeps a camera (segments
/// by wall-clock time, an index, retention), and the segment length both it and
/// `reel play --record` cut at.
struct CameraRecordingOptions: ParsableArguments {
    @Option(name: .customLong("record-dir"), help: ArgumentHelp(
        "Record the stream (on a wall: each camera's main stream, in a folder named after it) into DIR without decoding: segments named by the wall-clock time of their first picture, an index (index.jsonl); `reel export` cuts a span back out.",
        valueName: "dir"))
    var recordDirectory: String?

    @Option(name: .customLong("record-segment"), help: ArgumentHelp(
        "A new file at the first keyframe past every SECONDS (at least 1): of --record in `reel play` (FILE-000.ext, FILE-001.ext…), and of --record-dir (60 by default).",
        valueName: "seconds"))
    var recordSegment: Double?

    @Option(help: ArgumentHelp("With --record-dir, delete segments older than this (7d, 36h, 90m), oldest first, never the one being written.", valueName: "age"))
    var retention: String?

    @Option(name: .customLong("retention-size"), help: ArgumentHelp("With --record-dir, delete the oldest segments while the recording is larger than this (20G, 500M), never the one being written.",
                                                                    valueName: "size"))
    var retentionSize: String?

    /// The policy the options give.
    var policy: RetentionPolicy {
        RetentionPolicy(maximumAge: retention.flatMap(RetentionPolicy.duration), maximumBytes: retentionSize.flatMap(RetentionPolicy.size))
    }

    /// Seconds a --record-dir segment lasts at least.
    var segmentSeconds: Double { recordSegment ?? 60 }

    /// Checks what the options say alone; `recordsToFile` says whether --record is given too
    /// (nil where the command has no --record).
    func check(recordsToFile: Bool?) throws {
        if let recordSegment, !(recordSegment >= 1) { throw ValidationError("--record-segment takes seconds, 1 or more (got \(recordSegment))") }
        if recordSegment != nil && recordsToFile != true && recordDirectory == nil {
            throw ValidationError(recordsToFile == nil ? "--record-segment cuts what --record-dir writes; give --record-dir DIR"
                                                       : "--record-segment cuts what --record or --record-dir writes; give one of them")
        }
        if let retention, RetentionPolicy.duration(retention) == nil { throw ValidationError("--retention takes an age such as 7d, 36h or 90m (got \(retention))") }
        if let retentionSize, RetentionPolicy.size(retentionSize) == nil { throw ValidationError("--retention-size takes a size such as 20G or 500M (got \(retentionSize))") }
        if (retention != nil || retentionSize != nil) && recordDirectory == nil { throw ValidationError("--retention and --retention-size apply to --record-dir; give --record-dir DIR") }
    }

    /// Whether `url` is a stream a second reader can pull from as the player plays it: a
    /// network input that is not a listener (a file would be recorded again each time it
    /// ended; UDP, a listener, an SDP or a pipe have one reader).
    static func canRecordSeparately(_ url: String) -> Bool {
        guard let scheme = URLComponents(string: url)?.scheme?.lowercased() else { return false }
        let pulled: Set = ["rtsp", "rtsps", "rtmp", "rtmps", "http", "https", "srt"]
        return pulled.contains(scheme) && !url.contains("listen") && !url.contains("mode=listener")
    }

    /// Says on standard error when `recorder` stops for good (and why), as it happens.
    static func report(_ recorder: CameraRecorder, name: String) {
        Task {
            for await event in recorder.events {
                if case .failed(let reason) = event { FileHandle.standardError.write(Data("reel: \(name): recording stopped: \(reason)\n".utf8)) }
            }
        }
    }

    /// A recorder of `url` into `directory`, started.
    func startRecorder(url: String, directory: String, input: DemuxOptions) throws -> CameraRecorder {
        let recorder = try CameraRecorder(url: url, directory: directory, segmentSeconds: segmentSeconds, retention: policy, input: input)
        recorder.start()
        return recorder
    }
}
