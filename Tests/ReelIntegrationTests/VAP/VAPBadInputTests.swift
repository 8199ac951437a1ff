import Foundation
import Reel
import Testing

/// Damaged VAP files: each gives a one-line error and a non-zero exit, never a crash, a
/// hang or a huge allocation.
@Suite struct VAPBadInputTests {
    enum Damage: String, CaseIterable, Sendable {
        case truncatedInMoov, truncatedInMdat, boxLargerThanFile, invalidJSON, missingKey, rectOutside, frameIndexBeyond, gigabyteSample, notMP4
    }

    static func replace(_ old: String, with new: String, in data: inout Data) throws {
        precondition(old.utf8.count == new.utf8.count, "same length keeps the box sizes right")
        guard let range = data.range(of: Data(old.utf8)) else { throw TestSetupError("\(old) not found") }
        data.replaceSubrange(range, with: Data(new.utf8))
    }

    static func damaged(_ damage: Damage, in directory: URL) throws -> String {
        let fixtures = try Paths.sharedFixtures("vap")
        var data = try Data(contentsOf: fixtures.appendingPathComponent(damage == .frameIndexBeyond ? "vapx.mp4" : "demo.mp4"))
        switch damage {
        case .truncatedInMoov:
            let moov = try #require(MP4Patches.topLevelBoxes(data).first { $0.type == "moov" })
            data = data.prefix(moov.range.lowerBound + 300)
        case .truncatedInMdat: data = data.prefix(data.count / 2)
        case .boxLargerThanFile:
            let moov = try #require(MP4Patches.topLevelBoxes(data).first { $0.type == "moov" })
            data.replaceSubrange(moov.range.lowerBound..<moov.range.lowerBound + 4, with: MP4Patches.int32(0x7FFF_FFF0))
        case .invalidJSON: try replace("{\"info\":{", with: "{\"info\";{", in: &data)
        case .missingKey: try replace("\"videoW\"", with: "\"videoX\"", in: &data)
        case .rectOutside: try replace("[4,588,368,288]", with: "[4,988,368,288]", in: &data)
        case .frameIndexBeyond: try replace("{\"i\":191,", with: "{\"i\":991,", in: &data)
        case .gigabyteSample:
            let stsz = try #require(data.range(of: Data("stsz".utf8)))
            // version/flags, uniform size 0, count, then the first entry.
            data.replaceSubrange(stsz.upperBound + 12..<stsz.upperBound + 16, with: MP4Patches.int32(1 << 30))
        case .notMP4: data = Data(repeating: 0x47, count: 4096)
        }
        let url = directory.appendingPathComponent("\(damage.rawValue).mp4")
        try data.write(to: url)
        return url.path
    }

    @Test(arguments: Damage.allCases)
    func damagedFilesFailCleanly(_ damage: Damage) throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.damaged(damage, in: directory)
        // info reads only the boxes; render reads every sample too.
        for arguments in [["vap", "info", path], ["vap", "render", path, "-o", directory.appendingPathComponent("f/%03d.png").path]] {
            let result = try Processes.run(Paths.reel, arguments, timeout: 60)
            #expect(!result.timedOut, "\(damage) \(arguments[1]) hung")
            if damage == .truncatedInMdat && arguments[1] == "info" { continue }
            #expect(result.status == 1, "\(damage) \(arguments[1]): exit \(result.status), \(result.stderr)")
            let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("reel: ") && !$0.contains("wrote") }
            #expect(lines.count == 1, "\(damage) \(arguments[1]): \(result.stderr)")
        }
    }
}
