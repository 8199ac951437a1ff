import Foundation
import Reel
import Testing

/// Bad input gets one line naming the problem, a non-zero exit, and never a crash or a hang.
@Suite struct BadInputTests {
    /// What a run must look like: exit status 1 (not a signal), within the time bound,
    /// one line on stderr that mentions `expected`.
    private func expectCleanFailure(_ arguments: [String], mentioning expected: String, within seconds: Double = 20) throws {
        let result = try Processes.run(Paths.reel, arguments, timeout: seconds)
        #expect(!result.timedOut, "\(arguments) hung")
        #expect(result.status == 1, "\(arguments) exited \(result.status): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(arguments) printed \(lines.count) lines: \(result.stderr)")
        #expect(result.stderr.hasPrefix("reel: "), "\(result.stderr)")
        #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
    }

    private func forBothCommands(_ input: String, mentioning expected: String, within seconds: Double = 20) throws {
        try expectCleanFailure(["probe", input], mentioning: expected, within: seconds)
        try expectCleanFailure(["decode", "--framemd5", input], mentioning: expected, within: seconds)
    }

    @Test func missingFile() throws {
        try forBothCommands("/nonexistent/clip.mp4", mentioning: "no such file or directory")
    }

    @Test func emptyFile() throws {
        let directory = try Paths.temporaryDirectory()
        let path = directory.appendingPathComponent("empty.mp4").path
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        try forBothCommands(path, mentioning: "the input is empty")
    }

    @Test func randomBytes() throws {
        var generator = SeededGenerator(seed: 42)
        let bytes = Data((0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let path = try Paths.temporaryDirectory().appendingPathComponent("random.mp4").path
        try bytes.write(to: URL(fileURLWithPath: path))
        try forBothCommands(path, mentioning: "not a media file Reel can read")
    }

    @Test(arguments: [10, 50, 90])
    func truncatedMP4WithIndexAtTheEnd(percent: Int) throws {
        let path = try truncated(Fixtures.named("h264-baseline-aac.mp4").path, percent: percent)
        try forBothCommands(path, mentioning: "moov atom not found")
    }

    @Test(arguments: [10, 50, 90])
    func truncatedMP4WithIndexAtTheStart(percent: Int) throws {
        // The index survives, so the input opens; decoding runs into the cut.
        let path = try truncated(try Fixtures.faststartMP4(), percent: percent)
        #expect(try reel("probe", path).status == 0)
        try expectCleanFailure(["decode", "--framemd5", path], mentioning: "the input is truncated")
        try expectCleanFailure(["decode", "--stream", "a", path], mentioning: "the input is truncated")
    }

    @Test func mp4WithoutMoov() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: try Fixtures.faststartMP4()))
        let boxes = MP4Patches.topLevelBoxes(data)
        let moov = try #require(boxes.first { $0.type == "moov" })
        var stripped = data
        stripped.removeSubrange(moov.range)
        let path = try Paths.temporaryDirectory().appendingPathComponent("nomoov.mp4").path
        try stripped.write(to: URL(fileURLWithPath: path))
        try forBothCommands(path, mentioning: "moov atom not found")
    }

    @Test func nothingListening() throws {
        let port = try SilentServer.unusedPort()
        try forBothCommands("http://127.0.0.1:\(port)/clip.mp4", mentioning: "connection refused")
    }

    @Test func serverThatNeverAnswers() throws {
        let server = try SilentServer()
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/clip.mp4"
        let start = Date()
        try expectCleanFailure(["probe", "--timeout", "2", url], mentioning: "no answer within 2 s", within: 15)
        #expect(Date().timeIntervalSince(start) < 10)
        try expectCleanFailure(["decode", "--framemd5", "--timeout", "1", "tcp://127.0.0.1:\(server.port)"],
                               mentioning: "no answer within 1 s", within: 15)
    }

    @Test func unknownStreamAndProtocol() throws {
        try expectCleanFailure(["decode", "--stream", "a", Fixtures.named("hevc-main10.mkv").path], mentioning: "no audio stream")
        try expectCleanFailure(["probe", "nosuchproto://x"], mentioning: "unsupported protocol")
    }

    private func truncated(_ source: String, percent: Int) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let path = try Paths.temporaryDirectory().appendingPathComponent("cut\(percent).mp4").path
        try data.prefix(data.count * percent / 100).write(to: URL(fileURLWithPath: path))
        return path
    }
}
