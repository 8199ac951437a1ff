import ArgumentParser
import Foundation
import Reel

struct EncodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Encode H.264 or H.265 from a file or the synthetic camera.",
        discussion: """
            The input is a .y4m file, a raw I420 file (.yuv, with --input-size and --input-rate), any \
            file Reel decodes (its audio is copied into an MP4 when the MP4 takes its codec), or the \
            synthetic camera (--camera 1280x720@30: a moving scene with the time and frame number \
            burnt in, in real time; --timecode adds a glass-to-glass timecode that `reel play \
            --measure-latency` and `reel latency` read). The output is an Annex B stream (.h264, \
            .h265), a container (.mp4, .mkv, .mov), rtp://HOST:PORT with its SDP written by --sdp, \
            a live stream: rtmp://SERVER/APP/NAME (FLV), srt://, udp:// or tcp:// (MPEG-TS), or a \
            WebRTC server through WHIP (whip+http://HOST/PATH, or an http(s) URL ending in /whip: \
            H.264 without B-frames, keyframes when the server asks, a file's sound as Opus); a file sent to a stream goes \
            at its frame rate. -o may be repeated: the pictures are \
            encoded once and written to each output (a stream and a recording of it).
            """)

    @Option(name: .shortAndLong, help: "A video file, .y4m or .yuv.")
    var input: String?

    @Option(help: "The synthetic camera: WIDTHxHEIGHT@FPS.")
    var camera: String?

    @Flag(help: "With --camera: draw the wall-clock time of each capture across the top as large blocks with a checksum, for `reel play --measure-latency` and `reel latency`.")
    var timecode = false

    @Option(name: .customLong("input-size"), help: "Picture size of a raw .yuv input (WIDTHxHEIGHT).")
    var inputSize: String?

    @Option(name: .customLong("input-rate"), help: "Frame rate of a raw .yuv input.")
    var inputRate: String = "25"

    @Option(help: "h264 or h265.")
    var codec: String = "h264"

    @Option(help: "Average bit rate (2M, 500k); constant quality when absent.")
    var bitrate: String?

    @Option(name: .customLong("max-rate"), help: "Data-rate limit: no window of --buffer bits (one second by default) holds more than this rate.")
    var maxRate: String?

    @Option(help: "The size of the --max-rate window in bits (4M); --max-rate's one second by default.")
    var buffer: String?

    @Option(help: "Most frames between keyframes.")
    var gop: Int = 250

    @Flag(name: .customLong("fixed-gop"), help: "Keyframes exactly every --gop frames (no scene-cut keyframes).")
    var fixedGOP = false

    @Option(help: "baseline, main or high (H.264); main (H.265).")
    var profile: String = "main"

    @Option(help: "Level (3.1, 4.1…); the encoder picks the lowest that fits by default.")
    var level: String?

    @Flag(help: "Real-time encoding: no look-ahead, no B-frames, each frame out as soon as it is in.")
    var realtime = false

    @Flag(name: .customLong("no-reordering"), help: "No B-frames.")
    var noReordering = false

    @Option(help: "x264/x265 preset (ultrafast … veryslow).")
    var preset: String = "veryfast"

    @Option(name: .customLong("force-keyframes"), help: "Frame numbers (from 0) made keyframes, comma-separated.")
    var forceKeyframes: String?

    @Flag(name: .customLong("repeat-headers"), help: "Annex B: parameter sets before every keyframe, not only at the start.")
    var repeatHeaders = false

    @Option(name: .shortAndLong, help: "out.h264, out.h265, out.mp4, rtp://HOST:PORT, rtmp://SERVER/APP/NAME, srt://HOST:PORT, udp://, tcp:// or whip+http://HOST/PATH; repeated, the same encode to each.")
    var output: [String] = []

    @Option(name: .customLong("whip-token"), help: "Bearer token for a WHIP output.")
    var whipToken: String?

    @Option(help: "Where to write the SDP of an RTP output.")
    var sdp: String?

    @Option(help: "Largest RTP packet in bytes.")
    var mtu: Int = 1400

    @Option(help: "Stop after this many seconds of media.")
    var duration: Double?

    @Option(help: "Frames waiting for the encoder before the oldest is dropped (live input).")
    var queue: Int = 8

    @Option(help: "Encoder threads (0: automatic).")
    var threads: Int = 0

    @Flag(help: "Print the final report as JSON on standard output.")
    var stats = false

    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard (input == nil) != (camera == nil) else { throw ValidationError("give either --input or --camera") }
        guard ["h264", "h265"].contains(codec) else { throw ValidationError("--codec is h264 or h265, got \(codec)") }
        guard EncoderProperties.Profile(rawValue: profile) != nil else { throw ValidationError("--profile is baseline, main or high, got \(profile)") }
        if timecode && camera == nil { throw ValidationError("--timecode is drawn by the synthetic camera: give --camera") }
        guard !output.isEmpty else { throw ValidationError("give an output: -o FILE or -o URL") }
        if camera != nil, duration == nil, !output.contains(where: { $0.contains("://") }) {
            throw ValidationError("--camera writes to a file only with --duration")
        }
        if output.filter({ $0.lowercased().hasPrefix("rtp://") }).count > 1 { throw ValidationError("one rtp:// output at most (--sdp describes it)") }
    }

    func run() async throws {
        common.setUpLogging()
        let job = try await failing { try makeJob() }
        let live = camera != nil
        let bar = ProgressBar()
        let line = LiveEncodeLine()
        // Ctrl-C ends the encode as the input's end would: files finished, a WHIP session ended.
        let interrupts = InterruptSignals { job.stop() }
        let report = try await failing {
            try await BlockingRun.run {
                try job.run { progress in
                    if live { line.show(progress) } else if let fraction = progress.fraction { bar.show(fraction) }
                }
            }
        }
        withExtendedLifetime(interrupts) {}
        if live { line.finish() } else { bar.finish() }
        FileHandle.standardError.write(Data(String(format: "reel: %d frames (%d dropped) → %@, %.0f kbit/s\n", report.samplesOut,
                                                   report.framesDropped, output.joined(separator: ", "), report.averageBitRate / 1000).utf8))
        if let codec = report.audioLeftOut {
            FileHandle.standardError.write(Data("reel: the input's \(codec) audio is not in the output (Annex B and RTP outputs carry video alone)\n".utf8))
        }
        if let codec = report.audioReencodedFrom {
            FileHandle.standardError.write(Data("reel: the input's \(codec) audio was re-encoded to AAC (the container does not take \(codec))\n".utf8))
        }
        if stats {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        }
    }

    private func makeJob() throws -> EncodeJob {
        var properties = EncoderProperties()
        properties.profile = EncoderProperties.Profile(rawValue: profile)!
        properties.level = level
        properties.realTime = realtime
        properties.allowFrameReordering = !noReordering
        properties.maxKeyFrameInterval = gop
        properties.exactKeyFrameInterval = fixedGOP
        properties.preset = preset
        properties.queueDepth = queue
        properties.threads = threads
        if let bitrate { properties.averageBitRate = try EncodeArguments.bitRate(bitrate, option: "--bitrate") }
        if let maxRate {
            let rate = try EncodeArguments.bitRate(maxRate, option: "--max-rate")
            let window = try buffer.map { try EncodeArguments.bitRate($0, option: "--buffer") } ?? rate
            properties.dataRateLimits = [.init(bytes: window / 8, seconds: Double(window) / Double(rate))]
        } else if buffer != nil {
            throw fail("--buffer needs --max-rate")
        }
        let keyframes = try (forceKeyframes ?? "").split(separator: ",").map { text -> Int in
            guard let frame = Int(text.trimmingCharacters(in: .whitespaces)), frame >= 0 else { throw fail("--force-keyframes takes frame numbers, got \(text)") }
            return frame
        }
        return try EncodeJob(input: try makeInput(), codec: VideoCodec(rawValue: codec)!, properties: properties,
                             destination: destination(output[0]), copies: output.dropFirst().map(destination), duration: duration, forcedKeyframes: Set(keyframes))
    }

    private func destination(_ output: String) -> EncodeDestination {
        EncodeDestination(output: output, sdpPath: sdp, mtu: mtu, repeatParameterSets: repeatHeaders, whipToken: whipToken)
    }

    private func makeInput() throws -> any EncoderInput {
        if let camera {
            let mode = try EncodeArguments.camera(camera)
            return try SyntheticCamera(width: mode.width, height: mode.height, frameRate: mode.rate, timecode: timecode)
        }
        let path = input!
        if path.lowercased().hasSuffix(".y4m") { return try RawPictureFileInput(y4m: path) }
        if path.lowercased().hasSuffix(".yuv") {
            guard let inputSize else { throw fail("a raw .yuv input needs --input-size") }
            let size = try EncodeArguments.size(inputSize, option: "--input-size")
            return try RawPictureFileInput(raw: path, width: size.width, height: size.height, frameRate: try EncodeArguments.rate(inputRate, option: "--input-rate"))
        }
        return try DecodedFileInput(path: path)
    }
}

/// The camera's live line on standard error: rates over the last second.
final class LiveEncodeLine: @unchecked Sendable {
    private var previous: (time: Double, statistics: EncoderStatistics)?
    private let isTerminal = isatty(STDERR_FILENO) != 0

    func show(_ progress: EncodeProgress) {
        guard let previous else {
            self.previous = (progress.elapsedSeconds, progress.statistics)
            return
        }
        let span = progress.elapsedSeconds - previous.time
        guard span >= 1 else { return }
        let now = progress.statistics, before = previous.statistics
        let text = String(format: "%.1f s  in %.1f fps  out %.1f fps  dropped %d  %.0f kbit/s", progress.mediaSeconds,
                          Double(now.framesIn - before.framesIn) / span, Double(now.samplesOut - before.samplesOut) / span,
                          now.framesDropped, Double(now.bytesOut - before.bytesOut) * 8 / span / 1000)
        FileHandle.standardError.write(Data((isTerminal ? "\r" + text : text + "\n").utf8))
        self.previous = (progress.elapsedSeconds, now)
    }

    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
