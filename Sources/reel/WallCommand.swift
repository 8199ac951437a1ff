import ArgumentParser
import Foundation
import Reel
import ReelSDL

/// `reel wall`: many live cameras in one window.
struct WallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wall",
        abstract: "Show many live cameras in one window: a grid of their sub-streams, one chosen to fill it with its main stream.",
        discussion: """
            Each camera is a tile with a player of its own: live, reconnecting when its stream drops, \
            its line showing its name, state, picture size, pictures a second and live latency. \
            The grid plays each camera's sub-stream when it has one (--wall-file names them); the chosen \
            tile is the one heard, and a tile that fills the window plays the camera's main stream, \
            the sub-stream's last picture shown until the main stream's first.

            Keys and the mouse:
            \(WallKeys.help)

            A wall file is JSON (a list of cameras, each {"name", "main", "sub", "username", "password"}, \
            or an object whose "cameras" is one) or M3U (one main stream a line, named by #EXTINF).
            """)

    @Argument(help: "Camera streams, each a tile (named after its host).")
    var urls: [String] = []

    @Option(name: .customLong("wall-file"), help: ArgumentHelp("The cameras, from a JSON or M3U file, after any given.", valueName: "file"))
    var wallFile: String?

    @Option(help: ArgumentHelp("The grid: auto (sized for the cameras), N (N×N) or CxR.", valueName: "auto|N|CxR"))
    var layout: String = "auto"

    @Option(help: ArgumentHelp("The wall picture's size.", valueName: "WxH"))
    var size: String = "1280x720"

    @Option(help: ArgumentHelp("The most wall pictures a second.", valueName: "N"))
    var fps: Double = 30

    @Option(help: ArgumentHelp("Start with tile N chosen (heard), from 1.", valueName: "N"))
    var choose: Int?

    @Option(help: ArgumentHelp("Start with tile N filling the window, playing its main stream.", valueName: "N"))
    var zoom: Int?

    @Flag(help: "No window and no sound card: the wall's pictures go only to --tap.")
    var headless = false

    @Option(help: ArgumentHelp("Where the wall's pictures go besides the window: y4m:PATH (- for standard output) or png:DIR.", valueName: "kind:path"))
    var tap: [String] = []

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @Flag(name: .customLong("no-labels"), help: "No line over each tile.")
    var noLabels = false

    @Flag(name: .customLong("no-audio"), help: "No sound.")
    var noAudio = false

    @Flag(help: "At the end, print each tile's counters (pictures shown, dropped, live latency…) and the wall's as JSON.")
    var stats = false

    @OptionGroup(title: "Recording") var recording: CameraRecordingOptions

    @OptionGroup var common: CommonOptions

    var parsedSize: (width: Int, height: Int)? {
        let parts = size.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1], (16...8192).contains(width), (16...8192).contains(height) else { return nil }
        return (width & ~1, height & ~1)
    }

    func validate() throws {
        guard !urls.isEmpty || wallFile != nil else { throw ValidationError("give camera URLs, --wall-file, or both") }
        guard parsedSize != nil else { throw ValidationError("--size takes WxH, each 16 to 8192, e.g. 1280x720") }
        guard fps > 0, fps <= 240 else { throw ValidationError("--fps takes 0 to 240 pictures a second (got \(fps))") }
        if let duration, !(duration > 0) { throw ValidationError("--duration takes seconds above 0 (got \(duration))") }
        try recording.check(recordsToFile: nil)
        for request in tap where TapOption(parsing: request) == nil {
            throw ValidationError("--tap takes y4m:PATH or png:DIR (got \(request))")
        }
    }

    func run() async throws {
        common.setUpLogging()
        var cameras = WallFile.cameras(urls: urls)
        if let wallFile {
            do {
                cameras += try WallFile.cameras(atPath: wallFile)
            } catch {
                throw fail("--wall-file: \(error)")
            }
        }
        let limit = WallLayout.largestSide * WallLayout.largestSide
        guard cameras.count <= limit else { throw fail("\(cameras.count) cameras: a wall shows \(limit) at most") }
        guard let grid = WallLayout(parsing: layout, cameras: cameras.count) else {
            throw fail("--layout '\(layout)': auto, N (1 to \(WallLayout.largestSide)) or CxR")
        }
        guard grid.capacity >= cameras.count else { throw fail("--layout \(layout) has \(grid.capacity) tiles for \(cameras.count) cameras") }
        for (option, tile) in [("--choose", choose), ("--zoom", zoom)] {
            if let tile, !(1...cameras.count).contains(tile) { throw fail("\(option) \(tile): the wall has tiles 1 to \(cameras.count)") }
        }

        var configuration = WallConfiguration()
        configuration.layout = grid
        (configuration.width, configuration.height) = parsedSize!
        configuration.framesPerSecond = fps
        configuration.showsLabels = !noLabels
        configuration.player.input = common.demuxOptions
        let output: @Sendable () -> (any WallOutput)?
        let audio: @Sendable () -> (any AudioOutput)?
        if headless {
            output = { HeadlessWallOutput() }
            audio = { [noAudio] in noAudio ? nil : HeadlessAudioOutput() }
        } else {
            guard WindowOutputs.displayIsReachable() else {
                throw fail("no display to open a window on (DISPLAY is not set); run with --headless to show the wall without one")
            }
            let title = "reel wall: \(cameras.count) camera\(cameras.count == 1 ? "" : "s")"
            output = { SDLWallWindow(title: title) }
            audio = { [noAudio] in noAudio ? nil : WindowOutputs.soundDevice() }
        }
        let wall = Wall(cameras: cameras, configuration: configuration, output: output, audioOutput: audio)
        let taps: TapWriters
        do {
            taps = try TapWriters(options: tap.compactMap(TapOption.init(parsing:)), tap: wall.frameTap, every: 1)
        } catch {
            throw fail("tap: \(error)")
        }
        // Each camera's main stream recorded into a folder named after it.
        var recorders: [CameraRecorder] = []
        if let directory = recording.recordDirectory {
            // Two cameras never share a folder (their indexes would lose each other's lines).
            var folders = Set<String>()
            for camera in cameras {
                var folder = camera.folderName, number = 1
                while folders.contains(folder) {
                    number += 1
                    folder = "\(camera.folderName) (\(number))"
                }
                folders.insert(folder)
                do {
                    let folder = (directory as NSString).appendingPathComponent(folder)
                    let recorder = try recording.startRecorder(url: camera.mainURL, directory: folder, input: configuration.player.input)
                    CameraRecordingOptions.report(recorder, name: "--record-dir \(camera.name)")
                    recorders.append(recorder)
                } catch {
                    recorders.forEach { $0.stop() }
                    throw fail("--record-dir: \(camera.name): \(error)")
                }
            }
        }
        let interrupts = InterruptSignals { wall.stop() }
        let startedAt = Date()
        wall.start()
        if let choose { wall.apply(.choose(choose - 1)) }
        if let zoom { wall.apply(.zoomTile(zoom - 1)) }
        let stopper = duration.map { seconds in
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                wall.stop()
            }
        }
        for await event in wall.events {
            switch event {
            case .quitAsked:
                wall.stop()
            case .openFailed(let camera, let stream, let error):
                FileHandle.standardError.write(Data("reel: \(cameras[camera].name) (\(stream == .main ? "main" : "sub") stream): \(error)\n".utf8))
            case .player(let camera, _, .reconnecting(let attempt, let reason)):
                FileHandle.standardError.write(Data("reel: \(cameras[camera].name): \(reason); reconnecting (attempt \(attempt))\n".utf8))
            default:
                break
            }
        }
        stopper?.cancel()
        recorders.forEach { $0.stop() }
        _ = interrupts
        if stats { printReport(wall, cameras: cameras, wallSeconds: Date().timeIntervalSince(startedAt)) }
        if let error = taps.finish(verbose: false) { throw fail("tap: \(error)") }
    }

    private func printReport(_ wall: Wall, cameras: [WallCamera], wallSeconds: Double) {
        struct Tile: Encodable {
            var name: String
            var statistics: PlayerStatistics
        }
        struct Report: Encodable {
            var tiles: [Tile]
            var wallPictures: Int
            var wallSeconds: Double
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let tiles = zip(cameras, wall.tileStatistics).map { Tile(name: $0.name, statistics: $1) }
        if let data = try? encoder.encode(Report(tiles: tiles, wallPictures: wall.picturesMade, wallSeconds: wallSeconds)) {
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
