import Foundation
import ReelGStreamer

/// A media file made by ffmpeg at test time, cached under `.cache/fixtures`.
struct Fixture: Sendable, CustomStringConvertible {
    var name: String
    /// ffmpeg arguments between the inputs and the output file.
    var inputs: [String]
    var encoding: [String]
    var hasAudio: Bool = true
    var hasVideo: Bool = true
    /// Every frame lands on a tick of 1/frame-rate: ffmpeg's framemd5 timestamps are then
    /// plain frame counts, and comparable line for line.
    var constantFrameRate = true
    /// An edit made to ffmpeg's output before it is cached.
    var patch: (@Sendable (URL) throws -> Void)?

    var description: String { name }
    var path: String { Fixtures.directory.appendingPathComponent(name).path }
}

enum Fixtures {
    /// Bump when the recipes change, so stale caches are not reused.
    static let version = "v2"
    static let directory: URL = {
        // Before any test reads a fixture: while GStreamer's libav plug-in loads, FFmpeg's
        // log (which tells a truncated file from a short one) goes to GStreamer.
        GStreamer.initialise()
        let url = Paths.cache.appendingPathComponent("fixtures-\(version)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static let video = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2"]
    static let audio = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2,pan=stereo|c0=c0|c1=-0.5*c0"]
    static let both = video + audio

    static let matrix: [Fixture] = [
        Fixture(name: "h264-baseline-aac.mp4", inputs: both,
                encoding: ["-c:v", "libx264", "-profile:v", "baseline", "-pix_fmt", "yuv420p", "-c:a", "aac"]),
        Fixture(name: "h264-main-bframes-aac.mov", inputs: both,
                encoding: ["-c:v", "libx264", "-profile:v", "main", "-bf", "2", "-pix_fmt", "yuv420p", "-c:a", "aac"]),
        Fixture(name: "h264-high-bframes-flac-chapters.mkv",
                inputs: both + ["-f", "ffmetadata", "-i", chaptersFile.path],
                encoding: ["-map", "0:v", "-map", "1:a", "-map_chapters", "2", "-c:v", "libx264", "-profile:v", "high", "-bf", "3",
                           "-pix_fmt", "yuv420p", "-c:a", "flac", "-metadata", "title=Fixture with chapters",
                           "-metadata:s:a:0", "language=fra", "-metadata:s:v:0", "stereo_mode=top_bottom"]),
        Fixture(name: "hevc-aac.mp4", inputs: both,
                encoding: ["-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", "-pix_fmt", "yuv420p", "-c:a", "aac"]),
        Fixture(name: "hevc-main10.mkv", inputs: video,
                encoding: ["-c:v", "libx265", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p10le",
                           "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc"],
                hasAudio: false),
        Fixture(name: "vp9-opus.webm", inputs: both,
                encoding: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k", "-c:a", "libopus"]),
        Fixture(name: "vp9-321x241.webm", inputs: ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=1,scale=321:241"],
                encoding: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"], hasAudio: false),
        Fixture(name: "mpeg4-pcm.mov", inputs: both,
                encoding: ["-c:v", "mpeg4", "-q:v", "5", "-c:a", "pcm_s16le"]),
        Fixture(name: "av1-opus.mkv", inputs: both,
                encoding: ["-c:v", "libsvtav1", "-preset", "12", "-svtav1-params", "lp=2", "-c:a", "libopus"]),
        Fixture(name: "h264-mp3.ts", inputs: both,
                encoding: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "libmp3lame"]),
        Fixture(name: "h264-mp3.flv", inputs: both,
                encoding: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "libmp3lame", "-ar", "44100"]),
        Fixture(name: "h264-aac-fragmented.mp4", inputs: both,
                encoding: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "10", "-c:a", "aac",
                           "-movflags", "frag_keyframe+empty_moov+default_base_moof"]),
        Fixture(name: "h264-750x814.mp4", inputs: ["-f", "lavfi", "-i", "testsrc2=size=750x814:rate=30:duration=1"] + audio,
                encoding: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"]),
        Fixture(name: "h264-rotated-90.mp4", inputs: both,
                encoding: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"], patch: MP4Patches.rotateFirstTrackBy90),
        Fixture(name: "h264-vfr.mkv", inputs: video,
                encoding: ["-vf", "settb=1/1000,setpts=N*40+mod(N\\,3)*17", "-vsync", "vfr", "-c:v", "libx264", "-pix_fmt", "yuv420p"],
                hasAudio: false, constantFrameRate: false),
        Fixture(name: "h264-full-range-bt709.mp4", inputs: video,
                encoding: ["-c:v", "libx264", "-pix_fmt", "yuvj420p", "-color_range", "pc", "-colorspace", "bt709",
                           "-color_primaries", "bt709", "-color_trc", "bt709"], hasAudio: false),
        Fixture(name: "pcm-s24-5.1.wav", inputs: ["-f", "lavfi", "-i", "sine=frequency=300:sample_rate=48000:duration=1,pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0"],
                encoding: ["-c:a", "pcm_s24le"], hasVideo: false),
    ]

    static let chaptersFile: URL = {
        let url = directory.appendingPathComponent("chapters.ffmeta")
        let text = """
            ;FFMETADATA1
            [CHAPTER]
            TIMEBASE=1/1000
            START=0
            END=1000
            title=Opening
            [CHAPTER]
            TIMEBASE=1/1000
            START=1000
            END=2000
            title=Ending

            """
        try? text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }()

    /// Every fixture, made once per cache (in parallel, two at a time).
    static let all: [Fixture] = {
        let failures = LockedList()
        DispatchQueue.concurrentPerform(iterations: matrix.count) { index in
            do { try make(matrix[index]) } catch { failures.append("\(matrix[index].name): \(error)") }
        }
        precondition(failures.items.isEmpty, "could not make fixtures: \(failures.items)")
        return matrix
    }()

    static func named(_ name: String) -> Fixture { all.first { $0.name == name }! }

    static func make(_ fixture: Fixture) throws {
        try CachedFile.at(fixture.path) { partial in
            let result = try Processes.run("ffmpeg", ["-v", "error", "-y", "-nostdin"] + fixture.inputs + fixture.encoding + [partial],
                                           timeout: 300)
            guard result.status == 0 else { throw TestSetupError("ffmpeg failed: \(result.stderr)") }
            try fixture.patch?(URL(fileURLWithPath: partial))
        }
    }

    /// 60 s at 25 fps with a white flash on the first frame of every second and a 1 kHz
    /// beep starting with it, for measuring A/V sync.
    static func flashAndBeep(seconds: Int = 60) throws -> String {
        try made("flash-beep-\(seconds)s.mp4", [
            "-f", "lavfi", "-i", "color=c=black:s=320x240:r=25:d=\(seconds),drawbox=c=white:t=fill:enable='lt(mod(t\\,1)\\,0.04)'",
            "-f", "lavfi", "-i", "aevalsrc='if(lt(mod(t\\,1)\\,0.1)\\,0.8*sin(2*PI*1000*t)\\,0)':s=48000:d=\(seconds)",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k"])
    }

    /// 10 s of 25 fps H.264 with a keyframe every 12 frames, for seeking.
    static func seekable() throws -> String {
        try made("seekable-10s.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=10",
            "-f", "lavfi", "-i", "sine=frequency=300:sample_rate=48000:duration=10",
            "-c:v", "libx264", "-g", "12", "-keyint_min", "12", "-sc_threshold", "0", "-bf", "2",
            "-pix_fmt", "yuv420p", "-c:a", "aac"])
    }

    /// 2 s of MPEG-TS with a keyframe each second: no index, so a seek into its last GOP
    /// can land after that GOP's keyframe.
    static func shortTransportStream() throws -> String {
        try made("short-2s.ts", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2",
            "-f", "lavfi", "-i", "sine=frequency=300:sample_rate=48000:duration=2",
            "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac"])
    }

    /// 10 s of video with two audio tracks: 440 Hz in English (the default) and 880 Hz in
    /// French, in Matroska.
    static func twoAudioLanguages() throws -> String {
        try made("two-audio-languages.mkv", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=10",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=10",
            "-f", "lavfi", "-i", "sine=frequency=880:sample_rate=48000:duration=10",
            "-map", "0:v", "-map", "1:a", "-map", "2:a",
            "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac",
            "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fre",
            "-disposition:a:0", "default", "-disposition:a:1", "0"])
    }

    /// A cached file made by ffmpeg from `arguments`.
    static func made(_ name: String, _ arguments: [String]) throws -> String {
        try CachedFile.at(directory.appendingPathComponent(name).path) { partial in
            let result = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y"] + arguments + [partial], timeout: 300)
            guard result.status == 0 else { throw TestSetupError("ffmpeg failed: \(result.stderr)") }
        }
    }

    /// The baseline fixture with its index (`moov`) moved to the front, for damage tests.
    static func faststartMP4() throws -> String {
        try made("h264-baseline-aac-faststart.mp4", ["-i", named("h264-baseline-aac.mp4").path, "-c", "copy", "-movflags", "+faststart"])
    }
}

final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ item: String) { lock.lock(); storage.append(item); lock.unlock() }
    var items: [String] { lock.lock(); defer { lock.unlock() }; return storage }
}
