import ArgumentParser
import Foundation
import Reel
import ReelSDL

struct VAPPlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a VAP animation in a window, over a checkerboard so that transparency shows.",
        discussion: "Keys: space pauses, left/right seek by 5 s, q or Escape quits. Prints one JSON line per event with --events.")

    @Argument(help: "A VAP animation (.mp4).")
    var file: String

    @Option(help: "Frames per second (1–60); the animation's own by default.")
    var fps: Int?

    @Option(help: "Times to play; 0 loops until quit.")
    var loops: Int = 1

    @Flag(help: "Clear the picture at the end instead of keeping the last frame.")
    var clearAtEnd = false

    @Flag(help: "Play without sound.")
    var noAudio = false

    @Flag(help: "Show the animation over black instead of a checkerboard.")
    var black = false

    @Flag(help: "No window and no sound card: frames are timed on the monotonic clock, audio on a virtual device.")
    var headless = false

    @Flag(help: "Print every event as a JSON line on standard output.")
    var events = false

    @Option(help: "Also write the frames shown: y4m:PATH (a file or a FIFO) or png:DIR (repeatable).")
    var tap: [String] = []

    @OptionGroup var vap: VAPOptions
    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard loops >= 0 else { throw ValidationError("--loops must be 0 (for ever) or more") }
        if let fps, !(1...60).contains(fps) { throw ValidationError("--fps must be between 1 and 60") }
        for request in tap where TapOption(parsing: request) == nil {
            throw ValidationError("--tap takes y4m:PATH or png:DIR (got \(request))")
        }
    }

    func run() async throws {
        common.setUpLogging()
        var configuration = VAPPlayer.Configuration(framesPerSecond: fps, loops: loops, keepsLastFrame: !clearAtEnd, playsAudio: !noAudio,
                                                    content: vap.content, checkerboard: !black)
        let frameTap = FrameTap.withLibswscaleFallback()
        let outputs = headless ? nil : WindowOutputs.make(title: "reel — \((file as NSString).lastPathComponent)", frameTap: frameTap,
                                                          pictureInPicture: false, panorama: nil)
        if !headless && outputs == nil {
            FileHandle.standardError.write(Data("reel: no display; playing headless\n".utf8))
        }
        let video: @Sendable () -> (any VideoOutput)?
        if let window = outputs?.video { video = window } else { video = { HeadlessVideoOutput() } }
        var audio: (any AudioOutput)?
        if !noAudio { audio = outputs?.audio() ?? HeadlessAudioOutput() }
        let player = try await failing {
            configuration.layout = try vap.layout(for: file)
            return try VAPPlayer(path: file, configuration: configuration, video: video, audio: audio, frameTap: frameTap)
        }
        let taps: TapWriters
        do {
            taps = try TapWriters(options: tap.compactMap(TapOption.init(parsing:)), tap: frameTap, every: 1)
        } catch {
            throw fail("tap: \(error)")
        }
        // Ctrl-C or a TERM ends a looping animation the way its end would: taps closed,
        // the count printed.
        let interrupts = InterruptSignals { player.stop() }
        player.play()
        var failure: String?
        var worstOffset = 0.0, shown = 0, dropped = 0, timedByAudio = false
        for await event in player.events {
            switch event {
            case .frameRendered(_, _, let offset):
                if let offset { worstOffset = max(worstOffset, abs(offset)); timedByAudio = true }
            case .completed(let frames, let drops, _): shown = frames; dropped = drops
            case .failed(let error): failure = error.description
            default: break
            }
            // Written at once, not held in stdout's buffer: whoever reads the events reads them as they happen.
            if events { FileHandle.standardOutput.write(Data((Self.json(event) + "\n").utf8)) }
        }
        await player.waitUntilFinished()
        withExtendedLifetime(interrupts) {}
        let tapError = taps.finish(verbose: false)
        if let failure { throw fail(failure) }
        if let tapError { throw fail("tap: \(tapError)") }
        FileHandle.standardError.write(Data(String(format: "reel: %d frames shown (%d dropped) at %.3f fps%@\n", shown, dropped, player.framesPerSecond,
                                                   !timedByAudio ? "" : String(format: ", audio within %.1f ms", worstOffset * 1000)).utf8))
    }

    static func json(_ event: VAPEvent) -> String {
        switch event {
        case .configReady(let config, let layout, let frames, let fps):
            return "{\"event\": \"config\", \"vapc\": \(config != nil), \"frames\": \(frames), \"fps\": \(fps), \"width\": \(layout.outputWidth), \"height\": \(layout.outputHeight)}"
        case .started: return "{\"event\": \"started\"}"
        case .frameRendered(let index, let loop, let offset):
            return "{\"event\": \"frame\", \"index\": \(index), \"loop\": \(loop)" + (offset.map { ", \"audioOffset\": \($0)" } ?? "") + "}"
        case .paused: return "{\"event\": \"paused\"}"
        case .resumed: return "{\"event\": \"resumed\"}"
        case .completed(let frames, let dropped, let loops):
            return "{\"event\": \"completed\", \"frames\": \(frames), \"dropped\": \(dropped), \"loops\": \(loops)}"
        case .failed(let error): return "{\"event\": \"failed\", \"error\": \"\(error.description.replacingOccurrences(of: "\"", with: "'"))\"}"
        }
    }
}
