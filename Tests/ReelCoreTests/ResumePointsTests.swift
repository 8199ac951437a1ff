import Foundation
import ReelCore
import Testing

@Suite struct ResumePointsTests {
    private func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reel-resume-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aSavedPointComesBackForTheSameFileOnly() throws {
        let root = try directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let file = root + "/clip.mp4"
        try Data(repeating: 1, count: 1000).write(to: URL(fileURLWithPath: file))
        let points = ResumePoints(directory: root + "/watch-later")
        let point = ResumePoint(position: 12.3, audioTrack: 2, subtitleTrack: nil, volume: 0.5)
        try points.save(point, for: file)
        #expect(points.load(file).point == point)
        // The same file named another way is the same file.
        #expect(points.load(root + "/./clip.mp4").point == point)
        // Another file of another size in its place starts at the beginning.
        try Data(repeating: 1, count: 999).write(to: URL(fileURLWithPath: file))
        #expect(points.load(file).point == nil && points.load(file).warning == nil)
        points.forget(file)
        #expect(!FileManager.default.fileExists(atPath: points.path(for: file)))
    }

    @Test func aDamagedFileIsLeftAloneWithAWarning() throws {
        let root = try directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let points = ResumePoints(directory: root)
        let url = "https://viewer:s3cret@cdn.example/film.mp4"
        try "{\"input\": 3".write(toFile: points.path(for: url), atomically: true, encoding: .utf8)
        let (point, warning) = points.load(url)
        #expect(point == nil && warning?.contains("ignoring") == true)
        #expect(FileManager.default.fileExists(atPath: points.path(for: url)))
        // A URL's secret is not written down.
        try points.save(ResumePoint(position: 1, audioTrack: 1, subtitleTrack: 1, volume: 1), for: url)
        let saved = try String(contentsOfFile: points.path(for: url), encoding: .utf8)
        #expect(!saved.contains("s3cret") && points.load(url).point?.position == 1, "\(saved)")
        // Nothing is left beside it from the writing.
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).count == 1)
    }

    @Test func theDefaultPlaceFollowsXDG() {
        #expect(ResumePoints.defaultDirectory.hasSuffix("/reel/watch-later"))
    }
}
