import ArgumentParser
import Foundation
import Reel

struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode a stream: print per-frame MD5s as ffmpeg's framemd5 does, or a summary.",
        discussion: """
            With --framemd5 the output matches `ffmpeg -i INPUT -map 0:v:0 -f framemd5 -` \
            (for audio, `-map 0:a:0 -c:a pcm_<format>` with the decoder's own sample format).
            """)

    enum StreamChoice: String, ExpressibleByArgument, CaseIterable {
        case v, a
        var mediaType: MediaType { self == .v ? .video : .audio }
    }

    @Argument(help: "A file, or any URL FFmpeg reads.")
    var input: String

    @Flag(help: "Print one MD5 per decoded frame in ffmpeg's framemd5 form.")
    var framemd5 = false

    @Option(help: "Which stream: v (the first video stream) or a (the first audio stream).")
    var stream: StreamChoice = .v

    @Option(help: "Decoding threads; 0 chooses one per core.")
    var threads: Int = 0

    @Option(help: "Hardware decoding: none, auto, or a device type (vaapi, vdpau, cuda…). Falls back to software.")
    var hwaccel: String = "none"

    @OptionGroup(title: "Network input") var network: NetworkInputOptions

    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard threads >= 0 && threads <= 64 else { throw ValidationError("--threads must be between 0 and 64") }
    }

    func run() async throws {
        common.setUpLogging()
        let hardware: HardwareDecoding = switch hwaccel {
        case "none": .none
        case "auto": .automatic
        default: .device(hwaccel)
        }
        var demuxOptions = common.demuxOptions
        let input = network.apply(to: self.input, options: &demuxOptions)
        let options = FrameChecksums.Options(stream: stream.mediaType, input: demuxOptions,
                                             decoder: DecoderOptions(threadCount: threads, hardware: hardware))
        if framemd5 {
            try await failing {
                var output = BufferedOutput()
                // The lines of the frames decoded before a failure are printed too.
                defer { output.flush() }
                for try await line in FrameChecksums.lines(of: input, options: options) { output.write(line) }
            }
        } else {
            let summary = try await failing { try await DecodeRun.run(input, options: options) }
            print(summary.description)
        }
    }
}

/// Line output in large writes: framemd5 prints a line per frame.
struct BufferedOutput {
    private var buffer = Data()
    mutating func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count > 1 << 16 { flush() }
    }
    mutating func flush() {
        FileHandle.standardOutput.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
