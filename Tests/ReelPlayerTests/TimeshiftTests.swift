import Foundation
@testable import ReelPlayer
import ReelCore
import Testing

/// A live input played through a timeshift, on a manual clock: behind on purpose, nothing
/// is skipped; going live is an exact seek to the newest media kept less the target.
@Suite struct TimeshiftTests {
    private static func harness(directory: String) throws -> (SessionHarness, TimeshiftRing) {
        var configuration = Player.Configuration()
        // Jumps from 2 s behind: a 5 s pause would be jumped over without the timeshift.
        configuration.liveLatency = LiveLatency(target: 0.3, slack: 0.1, catchUpRate: 1.1, jumpAbove: 2)
        let ring = TimeshiftRing(url: "rtsp://camera/stream", window: 60, videoStream: 0, directory: directory, maximumBytes: .max)
        let harness = try SessionHarness(configuration: configuration, duration: 60, audio: false, live: true) { engine in
            // Frame n arrives n/25 s after the clock's start (100), wherever the session reads.
            engine.arrival = { index, _ in 100 + Double(index) / 25 }
            engine.keeps = ring
        }
        return (harness, ring)
    }

    private static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reel-timeshift-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aPauseIsPlayedOnWithNothingSkippedUntilGoingLive() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (harness, ring) = try Self.harness(directory: directory)
        harness.play()
        harness.run(for: 5)
        let before = try #require(harness.control.read { $0.statistics.liveLatency })
        #expect(before <= 0.3 + 0.04 + 1e-9, "on target before the pause: \(before)")
        harness.pause()
        harness.session.holdBehindLive()
        let eventsAtPause = harness.events.all.count
        harness.run(for: 5)
        harness.play()
        harness.run(for: 5)

        // Every picture in turn, none skipped, no catch-up and no jump while behind.
        let times = harness.shownTimes
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.04) < 1e-6 }, "\(times)")
        #expect(harness.engine.skips.isEmpty)
        let adjusted = harness.events.all.dropFirst(eventsAtPause).filter { if case .liveAdjusted = $0 { true } else { false } }
        #expect(adjusted.isEmpty, "\(adjusted)")
        let behind = try #require(harness.control.read { $0.statistics.liveLatency })
        #expect(abs(behind - (before + 5)) <= 0.05, "5 s more behind after a 5 s pause: \(behind), before \(before)")
        #expect(harness.control.read { $0.behindLiveOnPurpose })
        let window = try #require(harness.session.timeshiftWindow)
        #expect(window.lowerBound == 0 && abs(window.upperBound - 15) <= 0.04, "\(window)")

        // Going live: an exact seek to the newest media less the target, and live again.
        let edge = try #require(ring.liveEdge(of: [0]))
        harness.session.goToLiveEdge()
        let seek = try #require(harness.engine.seeks.last)
        #expect(seek.mode == .exact && abs(seek.target - (edge - 0.3)) < 1e-9)
        let shownBefore = harness.shownTimes.count
        harness.run(for: 1)
        // The picture that covers the target: 0.3 s is seven and a half pictures.
        let first = try #require(harness.shownTimes.dropFirst(shownBefore).first)
        #expect(first <= seek.target + 1e-9 && first > seek.target - 0.04, "first picture after going live: \(first), target \(seek.target)")
        let after = try #require(harness.control.read { $0.statistics.liveLatency })
        #expect(after <= 0.3 + 0.06 + 1e-9, "on target after going live: \(after)")
        #expect(!harness.control.read { $0.behindLiveOnPurpose })
    }

    @Test func aSeekBackInsideTheWindowIsBehindOnPurposeAndOnePastTheEdgeIsLive() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (harness, _) = try Self.harness(directory: directory)
        harness.play()
        harness.run(for: 10)
        let window = try #require(harness.engine.timeshift?.range)
        // Back 20 s from 10 s: the oldest moment kept.
        harness.session.seek(inTimeshift: window, to: window.upperBound - 20, mode: .exact)
        #expect(harness.engine.seeks.last?.target == window.lowerBound)
        #expect(harness.control.read { $0.behindLiveOnPurpose })
        harness.run(for: 3)
        #expect(harness.engine.skips.isEmpty)
        #expect(harness.shownTimes.last.map { $0 < 3.1 } == true, "still behind: \(harness.shownTimes.last ?? .nan)")
        // At the newest media less the target, or past it: live again.
        harness.session.seek(inTimeshift: try #require(harness.engine.timeshift?.range), to: 1_000, mode: .keyframe)
        #expect(!harness.control.read { $0.behindLiveOnPurpose })
        #expect(harness.engine.seeks.last?.mode == .exact)
        // Live already, a seek on is nothing to do.
        let seeks = harness.engine.seeks.count
        harness.session.seek(inTimeshift: try #require(harness.engine.timeshift?.range), to: 1_000, mode: .keyframe)
        #expect(harness.engine.seeks.count == seeks)
    }
}
