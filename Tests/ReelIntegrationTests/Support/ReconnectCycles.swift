import Foundation
@testable import ReelCore
import Testing

/// `reel play --headless --stats URL` while its stream is taken away and brought back
/// `cycles` times: how long after each return the picture was back, the process's threads
/// and descriptors after each cycle, and its JSON report at the end.
///
/// The time runs from the moment `bringBack` says the stream is back (a publisher
/// connected to the server, a server listening again) to the player's line that its first
/// picture is on screen (`reel: picture back`), so it holds whatever the player's back-off
/// and probing do. `REEL_RECONNECT_CYCLES` raises the count for the reconnect table
/// (`scripts/bench-reconnect.sh`).
struct ReconnectCycles {
    var resumes: [Double] = []
    var counts: [(threads: Int, descriptors: Int)] = []
    /// The report's `statistics` object.
    var statistics: [String: Any] = [:]
    /// What the player wrote on stderr but its live line, for the messages of failures.
    var log = ""

    /// Whether every cycle's picture came back within `bound` seconds of the stream's
    /// return, plus the back-off wait that may fall after that return: none when the first
    /// attempt succeeded; when a later one did (a server slow to start again under load),
    /// the wait before that attempt, which may have begun just before the stream was back.
    func resumed(within bound: Double) -> Bool {
        let attempts = log.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: "reconnected after ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        guard attempts.count == resumes.count else { return false }
        return zip(resumes, attempts).allSatisfy { resume, attempt in
            let wait = attempt > 1 ? ReconnectSchedule.delay(before: attempt) : 0
            return resume <= bound + wait
        }
    }

    /// Nil when no cycle came back.
    var median: Double? { resumes.isEmpty ? nil : resumes.sorted()[resumes.count / 2] }

    /// One line for the log and the table: each cycle's time, their median, the counts.
    func line(_ label: String) -> String {
        let figures = resumes.map { String(format: "%.2f", $0) }.joined(separator: ", ")
        return String(format: "reconnect %@: picture back [%@] s after the stream was back, median %.2f; the last outage %.2f s; threads/descriptors after cycle 1: %d/%d, after cycle %d: %d/%d",
                      label, figures, median ?? .nan, statistics["reconnect_outage"] as? Double ?? .nan, counts.first?.threads ?? -1,
                      counts.first?.descriptors ?? -1, counts.count, counts.last?.threads ?? -1, counts.last?.descriptors ?? -1)
    }

    /// Plays `url` (with `arguments` before it) until it shows pictures, then runs the
    /// cycles: `takeAway`, the player's line that it lost the input, `bringBack`
    /// (returning once the stream is back), the picture back, and three more reports of the
    /// live line (playing on) before the process's threads and descriptors are counted.
    /// The stream comes back once the loss is noticed, so the time measured is the
    /// reconnect's alone, whatever noticing took (the report's `reconnect_outage` runs
    /// from the notice too). Records an issue and stops early when a step does not come
    /// within 20 s.
    init(url: String, arguments: [String] = [], cycles requested: Int, takeAway: () throws -> Void, bringBack: () throws -> Void) throws {
        let cycles = max(requested, ProcessInfo.processInfo.environment["REEL_RECONNECT_CYCLES"].flatMap(Int.init) ?? 0)
        let directory = try Paths.temporaryDirectory()
        let errors = directory.appendingPathComponent("stderr.txt").path
        let report = directory.appendingPathComponent("report.json").path
        let player = try BackgroundProcess(Paths.reel, ["play", "--headless", "--stats"] + arguments + [url], outputPath: report, errorPath: errors)
        defer { player.stop() }
        let stderr = { ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").suffix(800) }
        try #require(waitForText(" shown ", count: 8, in: errors, timeout: 20) != nil, "not playing: \(stderr())")
        let liveLines = { ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").components(separatedBy: " shown ").count - 1 }
        for cycle in 1...cycles {
            try takeAway()
            guard waitForText("reconnecting (attempt 1)", count: cycle, in: errors, timeout: 20) != nil else {
                Issue.record("cycle \(cycle): the loss was not noticed within 20 s: \(stderr())")
                return
            }
            try bringBack()
            let back = Date()
            guard let shown = waitForText("reel: picture back", count: cycle, in: errors, timeout: 20) else {
                Issue.record("cycle \(cycle): no picture within 20 s of the stream's return: \(stderr())")
                return
            }
            resumes.append(shown.timeIntervalSince(back))
            guard waitForText(" shown ", count: liveLines() + 3, in: errors, timeout: 20) != nil else {
                Issue.record("cycle \(cycle): the live line stopped after the picture came back: \(stderr())")
                return
            }
            counts.append(player.threadsAndDescriptors)
        }
        player.interrupt()
        #expect(player.waitForExit(within: 10) && player.exitStatus == 0, "\(stderr())")
        log = reelMessages((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").joined(separator: "\n")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        statistics = json?["statistics"] as? [String: Any] ?? [:]
    }
}
