import Foundation
import Reel
import Testing

/// Subtitles drawn by libass into the frames the player shows, against FFmpeg's
/// `subtitles` filter (libass too) on the same files: PSNR ≥ 40 dB at 20 frames per file,
/// among them the first and last frame of every event and the frames just outside.
@Suite struct SubtitleTests {
    /// FFmpeg's accurate RGB conversion, as the player's.
    static let accurateRGB = "scale=flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgb24"
    static let frameBytes = SubtitleFixtures.size.width * SubtitleFixtures.size.height * 3

    @Test(.timeLimit(.minutes(3))) func subRipFileMatchesFFmpegsSubtitlesFilter() async throws {
        let (video, subtitles) = try SubtitleFixtures.videoWithSubRip()
        // Events 1.010–2.490 and 3.010–4.490 s: first frames 26 and 76, last 62 and 112.
        let indices = [0, 10, 25, 26, 30, 40, 50, 62, 63, 70, 75, 76, 80, 90, 100, 112, 113, 120, 140, 149]
        let ours = try await Self.shown(video, indices: Set(indices)) { $0.subtitleFiles = [subtitles] }
        let theirs = try Self.ffmpegFrames(video, filter: "\(Self.accurateRGB),subtitles=\(subtitles)")
        let plain = try Self.ffmpegFrames(video, filter: Self.accurateRGB)
        try Self.compare(ours, theirs, plain, at: indices, eventFrames: Set(26...62).union(76...112))
    }

    @Test(.timeLimit(.minutes(3))) func webVTTFileMatchesFFmpegsSubtitlesFilter() async throws {
        let (video, subtitles) = try SubtitleFixtures.videoWithWebVTT()
        // Cues 0.810–2.290, 2.890–4.090 and 4.410–5.290 s: first frames 21, 73 and 111, last 57, 102 and 132.
        let indices = [0, 20, 21, 30, 57, 58, 72, 73, 90, 102, 103, 110, 111, 120, 132, 133, 149]
        let ours = try await Self.shown(video, indices: Set(indices)) { $0.subtitleFiles = [subtitles] }
        let theirs = try Self.ffmpegFrames(video, filter: "\(Self.accurateRGB),subtitles=\(subtitles)")
        let plain = try Self.ffmpegFrames(video, filter: Self.accurateRGB)
        try Self.compare(ours, theirs, plain, at: indices, eventFrames: Set(21...57).union(73...102).union(111...132))
    }

    @Test(.timeLimit(.minutes(3))) func styledASSWithAnAttachedFontMatchesFFmpegsSubtitlesFilter() async throws {
        let (video, script) = try SubtitleFixtures.matroskaWithStyledASS()
        // Karaoke 0.51–2.49 s (frames 13–62), the sign 1.01–3.99 (26–99), the green line
        // 3.01–5.49 (76–137); 20 and 30 catch the karaoke's syllables as they change.
        let indices = [0, 12, 13, 20, 25, 26, 30, 45, 62, 63, 75, 76, 90, 99, 100, 110, 120, 137, 138, 149]
        // The track is marked default: shown without being asked for.
        let ours = try await Self.shown(video, indices: Set(indices))
        let theirs = try Self.ffmpegFrames(video, filter: "\(Self.accurateRGB),subtitles=\(video)")
        let plain = try Self.ffmpegFrames(video, filter: Self.accurateRGB)
        try Self.compare(ours, theirs, plain, at: indices, eventFrames: Set(13...137))
        // The attached font matters: the script alone (the font not found, another used)
        // draws differently, so a player that ignored the attachment would fail above.
        let withoutFont = try Self.ffmpegFrames(video, filter: "\(Self.accurateRGB),subtitles=\(script)")
        #expect(Self.psnr(withoutFont[26], theirs[26]) < 35, "the attached font made no difference")
    }

    /// The three picture formats: PGS (written by the fixture), and DVB and VobSub
    /// (ffmpeg's `dvbsub` and `dvdsub` encoders' versions of the same pictures).
    enum PictureFormat: String, CaseIterable, CustomTestStringConvertible {
        case pgs, dvb, vobSub
        var testDescription: String { rawValue }
        func fixture() throws -> String {
            switch self {
            case .pgs: try SubtitleFixtures.matroskaWithPGS()
            case .dvb: try SubtitleFixtures.matroskaWithPictures(encoder: "dvbsub")
            case .vobSub: try SubtitleFixtures.matroskaWithPictures(encoder: "dvdsub")
            }
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: PictureFormat.allCases)
    func picturesMatchFFmpegsOverlay(_ format: PictureFormat) async throws {
        let video = try format.fixture()
        // Boxes 1.010–2.490 and 3.010–4.490 s (the times the file was written with): first
        // frames 26 and 76, last 62 and 112.
        let indices = [0, 10, 25, 26, 30, 40, 50, 62, 63, 70, 75, 76, 80, 90, 100, 112, 113, 120, 140, 149]
        let ours = try await Self.shown(video, indices: Set(indices))
        // FFmpeg's own pictures of the track (its decoder drawn on a canvas, sub2video)
        // blended by its overlay filter in RGB, at the times the file says: the command
        // line's overlay of the track itself shows each picture a frame or three late
        // (from frame 27, not 26; from 79, not 76), as sub2video waits for the next packet.
        let canvases = try Self.ffmpegCanvases(video)
        try #require(canvases.count == 2, "FFmpeg drew \(canvases.count) distinct pictures, not 2")
        let plain = try Self.ffmpegFrames(video, filter: Self.accurateRGB)
        func canvas(_ index: Int) -> [UInt8]? { (26...62).contains(index) ? canvases[0] : (76...112).contains(index) ? canvases[1] : nil }
        let covered = indices.filter { canvas($0) != nil }
        let overlaid = Dictionary(uniqueKeysWithValues: zip(covered, try Self.ffmpegOverlays(covered.map { (canvas($0)!, plain[$0]) })))
        var lowest = Double.infinity
        for index in indices {
            let expected = overlaid[index] ?? plain[index]
            let quality = Self.psnr(try #require(ours[index], "\(format) frame \(index) was not shown"), expected)
            lowest = min(lowest, quality)
            #expect(quality >= 40, "\(format) frame \(index): \(quality) dB against FFmpeg's overlay of its picture")
            if overlaid[index] != nil { #expect(Self.psnr(expected, plain[index]) < 40, "\(format) frame \(index): FFmpeg's picture shows nothing") }
        }
        print("picturesMatchFFmpegsOverlay(\(format)): lowest PSNR \(lowest) dB over \(indices.count) frames")
    }

    /// The distinct non-empty pictures FFmpeg draws of `path`'s subtitle track (RGBA canvases), in order.
    static func ffmpegCanvases(_ path: String) throws -> [[UInt8]] {
        let output = try Paths.temporaryDirectory().appendingPathComponent("canvases.rgba").path
        let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", path, "-filter_complex", "[0:s]format=rgba[s]", "-map", "[s]",
                                                "-vsync", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgba", output])
        guard made.status == 0 else { throw TestSetupError("ffmpeg: \(made.stderr)") }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        let size = SubtitleFixtures.size.width * SubtitleFixtures.size.height * 4
        var distinct: [[UInt8]] = []
        for start in stride(from: 0, to: bytes.count - size + 1, by: size) {
            let canvas = Array(bytes[start..<start + size])
            let empty = stride(from: 3, to: canvas.count, by: 4).allSatisfy { canvas[$0] == 0 }
            if !empty && distinct.last != canvas { distinct.append(canvas) }
        }
        return distinct
    }

    /// Each pair's canvas (RGBA) blended over its frame (RGB) by FFmpeg's overlay filter, in
    /// RGB: one ffmpeg for them all, the pairs as the pictures of two raw streams.
    static func ffmpegOverlays(_ pairs: [(canvas: [UInt8], frame: [UInt8])]) throws -> [[UInt8]] {
        guard !pairs.isEmpty else { return [] }
        let directory = try Paths.temporaryDirectory()
        let (below, above, output) = (directory.appendingPathComponent("frames.rgb").path, directory.appendingPathComponent("canvases.rgba").path,
                                      directory.appendingPathComponent("overlaid.rgb").path)
        try Data(pairs.flatMap(\.frame)).write(to: URL(fileURLWithPath: below))
        try Data(pairs.flatMap(\.canvas)).write(to: URL(fileURLWithPath: above))
        let size = "\(SubtitleFixtures.size.width)x\(SubtitleFixtures.size.height)"
        let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", size, "-i", below,
                                                "-f", "rawvideo", "-pix_fmt", "rgba", "-s", size, "-i", above,
                                                "-filter_complex", "[0][1]overlay=format=rgb:eof_action=endall,format=rgb24", "-f", "rawvideo", "-pix_fmt", "rgb24", output])
        guard made.status == 0 else { throw TestSetupError("ffmpeg: \(made.stderr)") }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        let overlaid = stride(from: 0, to: bytes.count - frameBytes + 1, by: frameBytes).map { Array(bytes[$0..<$0 + frameBytes]) }
        guard overlaid.count == pairs.count else { throw TestSetupError("ffmpeg overlaid \(overlaid.count) of \(pairs.count) pictures") }
        return overlaid
    }

    @Test(.timeLimit(.minutes(3))) func aStreamsEventsComeAsTheReaderReadsThem() async throws {
        // Over HTTP there is no second reading of the input: the reader hands the events over.
        let (video, _) = try SubtitleFixtures.matroskaWithStyledASS()
        let indices = [12, 13, 26, 62, 63, 76, 99, 100, 137, 138]
        var ours: [Int: [UInt8]] = [:]
        let port = try SilentServer.unusedPort()
        let url = "http://127.0.0.1:\(port)/live.mkv"
        let server = try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-i", video, "-map", "0", "-c", "copy", "-f", "matroska", "-listen", "1", url])
        defer { server.stop() }
        // The server starts beside the player: an open refused before it listens (which
        // leaves its one connection free) is tried again, for up to 10 s.
        for attempt in 0..<40 {
            if attempt > 0 { try await Task.sleep(for: .milliseconds(250)) }
            guard let shown = try? await Self.shown(url, indices: Set(indices)) else { continue }
            ours = shown
            break
        }
        let theirs = try Self.ffmpegFrames(video, filter: "\(Self.accurateRGB),subtitles=\(video)")
        let plain = try Self.ffmpegFrames(video, filter: Self.accurateRGB)
        try Self.compare(ours, theirs, plain, at: indices, eventFrames: Set(13...137))
    }

    @Test(.timeLimit(.minutes(3))) func delayShiftsTheSubtitlesLater() async throws {
        let (video, subtitles) = try SubtitleFixtures.videoWithSubRip()
        // 0.5 s later: the first event shows from 1.510 s (frame 38) to 2.990 s (frame 74).
        let indices = [37, 38, 50, 74, 75]
        let ours = try await Self.shown(video, indices: Set(indices)) { configuration in
            configuration.subtitleFiles = [subtitles]
            configuration.subtitleDelay = 0.5
        }
        let theirs = try Self.ffmpegFrames(video, filter: "\(Self.accurateRGB),setpts=PTS-0.5/TB,subtitles=\(subtitles),setpts=PTS+0.5/TB")
        let plain = try Self.ffmpegFrames(video, filter: Self.accurateRGB)
        try Self.compare(ours, theirs, plain, at: indices, eventFrames: Set(38...74))
    }

    @Test(.timeLimit(.minutes(2))) func tracksListTheFilesAndNoneIsShownWhenAskedForNone() async throws {
        let (video, _) = try SubtitleFixtures.matroskaWithStyledASS()
        let (_, subRip) = try SubtitleFixtures.videoWithSubRip()
        var configuration = Player.Configuration()
        configuration.subtitleFiles = [subRip]
        configuration.subtitleTrack = .none
        let player = Player(configuration: configuration, videoOutput: { HeadlessVideoOutput() }, audioOutput: { nil })
        try await player.open(video)
        defer { player.stop() }
        let subtitles = player.tracks.filter { $0.type == .subtitle }
        #expect(subtitles.map(\.number) == [1, 2])
        #expect(subtitles.first?.codec == "ass" && subtitles.first?.language == "eng" && subtitles.first?.isDefault == true)
        #expect(subtitles.last?.file == subRip && subtitles.last?.codec == "subrip")
        #expect(player.currentSubtitleTrack == nil, "--sid no showed \(String(describing: player.currentSubtitleTrack))")
        try player.selectSubtitleTrack(2)
        #expect(player.currentSubtitleTrack?.file == subRip)
        try player.selectSubtitleTrack(nil)
        #expect(player.currentSubtitleTrack == nil)
        #expect(throws: TrackError.noSuchSubtitleTrack(3)) { try player.selectSubtitleTrack(3) }
    }

    @Test(.timeLimit(.minutes(2))) func hiddenOrNoSubtitlesLeaveTheFramesAsDecoded() async throws {
        let (video, subtitles) = try SubtitleFixtures.videoWithSubRip()
        let plain = try Self.ffmpegFrames(video, filter: Self.accurateRGB)
        for hide in [true, false] {
            let ours = try await Self.shown(video, indices: [40]) { configuration in
                configuration.subtitleFiles = [subtitles]
                if !hide { configuration.subtitleTrack = .none }
            } whilePlaying: { player in
                if hide { player.subtitlesVisible = false }
            }
            #expect(Self.psnr(try #require(ours[40]), plain[40]) == .infinity, hide ? "hidden subtitles were drawn" : "--sid no drew subtitles")
        }
    }

    // MARK: Helpers

    /// Checks `ours` against `theirs` at each index (≥ 40 dB), and that the frames of
    /// `eventFrames` do carry text (theirs differ from the plain frame) while the others do not.
    static func compare(_ ours: [Int: [UInt8]], _ theirs: [[UInt8]], _ plain: [[UInt8]], at indices: [Int], eventFrames: Set<Int>,
                        caller: String = #function) throws {
        var lowest = Double.infinity
        defer { print("\(caller): lowest PSNR against FFmpeg's subtitles filter \(lowest) dB over \(indices.count) frames") }
        for index in indices {
            let mine = try #require(ours[index], "frame \(index) was not shown")
            let quality = psnr(mine, theirs[index])
            lowest = min(lowest, quality)
            #expect(quality >= 40, "frame \(index): \(quality) dB against FFmpeg's subtitles filter")
            let textShows = psnr(theirs[index], plain[index]) < 40
            #expect(textShows == eventFrames.contains(index), "frame \(index): FFmpeg \(textShows ? "shows" : "shows no") text")
        }
    }

    /// Every frame of `path` through `filter`, in RGB.
    static func ffmpegFrames(_ path: String, filter: String) throws -> [[UInt8]] {
        let output = try Paths.temporaryDirectory().appendingPathComponent("frames.rgb").path
        let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", path, "-vf", filter, "-f", "rawvideo", "-pix_fmt", "rgb24", output])
        guard made.status == 0 else { throw TestSetupError("ffmpeg: \(made.stderr)") }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        return stride(from: 0, to: bytes.count - frameBytes + 1, by: frameBytes).map { Array(bytes[$0..<$0 + frameBytes]) }
    }

    /// The frames at `indices` as the player shows them (untimed: every frame), in RGB.
    static func shown(_ path: String, indices: Set<Int>, configure: (inout Player.Configuration) -> Void = { _ in },
                      whilePlaying: (Player) -> Void = { _ in }) async throws -> [Int: [UInt8]] {
        var configuration = Player.Configuration()
        configuration.untimed = true
        configure(&configuration)
        let capture = RGBCapture(indices: indices, frameRate: SubtitleFixtures.frameRate)
        let player = Player(configuration: configuration, videoOutput: { capture }, audioOutput: { nil })
        try await player.open(path)
        defer { player.stop() }
        whilePlaying(player)
        player.play()
        // The events are buffered from the player's creation: the end (or a failure) is not
        // missed. The suites' time limits bound the wait.
        for await event in player.events {
            if case .endOfStream = event { break }
            if case .error = event { break }
        }
        return capture.frames
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var sum = 0.0
        for index in a.indices {
            let difference = Double(Int(a[index]) - Int(b[index]))
            sum += difference * difference
        }
        return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(a.count)))
    }
}

/// Keeps the frames shown at some indices (by their time), in tightly packed RGB.
final class RGBCapture: VideoOutput, @unchecked Sendable {
    private let indices: Set<Int>
    private let frameRate: Double
    private let converter = PictureConverter()
    private let kept = LockedValue<[Int: [UInt8]]>([:])

    init(indices: Set<Int>, frameRate: Double) {
        self.indices = indices
        self.frameRate = frameRate
    }

    var frames: [Int: [UInt8]] { kept.withLock { $0 } }

    func present(_ frame: VideoFrame) {
        guard let seconds = frame.presentationTime?.seconds else { return }
        let index = Int((seconds * frameRate).rounded())
        guard indices.contains(index), let rgb = try? converter.convert(frame, to: PixelFormat("rgb24"), quality: .accurate) else { return }
        let plane = rgb.planes[0]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(plane.rowByteCount * plane.rowCount)
        for row in 0..<plane.rowCount { bytes.append(contentsOf: plane.row(row)) }
        kept.withLock { $0[index] = bytes }
    }

    func idle(status: PlaybackStatus) -> [UserCommand] { [] }
    func close() {}
}
