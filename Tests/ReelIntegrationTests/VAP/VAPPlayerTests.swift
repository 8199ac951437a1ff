import Foundation
import Reel
import Testing

/// The VAP player through its library API, headless: events in order, seek, pause and
/// resume, loops, and the last frame kept or cleared.
@Suite struct VAPPlayerTests {
    static func events(of player: VAPPlayer, while control: @escaping @Sendable (VAPPlayer, VAPEvent) -> Void) async -> [VAPEvent] {
        var seen: [VAPEvent] = []
        player.play()
        for await event in player.events {
            seen.append(event)
            control(player, event)
        }
        return seen
    }

    /// Calls `shown` on the player's thread for every frame presented, with its index.
    final class CommandingOutput: VideoOutput, @unchecked Sendable {
        let shown: (Int) -> Void
        private(set) var times: [Double] = []
        init(_ shown: @escaping (Int) -> Void) { self.shown = shown }
        func present(_ frame: VideoFrame) {
            times.append(monotonicSeconds())
            shown(Int(((frame.presentationTime?.seconds ?? 0) * 60).rounded()))
        }
        func idle(status: PlaybackStatus) -> [UserCommand] { [] }
        func close() {}
    }

    @Test func seekPauseAndResumeAreReportedAndObeyed() async throws {
        let path = try Paths.sharedFixtures("vap").appendingPathComponent("demo.mp4").path
        // Commands go from the player's own thread, right after a frame is shown, so that
        // what comes next does not depend on how fast the test reads events.
        let box = LockedBox<VAPPlayer?>(nil)
        let output = CommandingOutput { index in
            guard let player = box.value else { return }
            if index == 5 { player.seek(toFrame: 60) }
            if index == 62 {
                player.pause()
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { player.play() }
            }
        }
        let player = try VAPPlayer(path: path, configuration: .init(framesPerSecond: 60), video: { output }, audio: nil)
        box.value = player
        let events = await Self.events(of: player) { _, _ in }
        let frames = events.compactMap { event -> Int? in if case .frameRendered(let index, _, _) = event { return index } else { return nil } }
        #expect(Array(frames.prefix(7)) == [0, 1, 2, 3, 4, 5, 60], "\(frames.prefix(10))")
        #expect(frames.last == 79 && frames.count == 26)
        let kinds = events.map { "\($0)".prefix { $0 != "(" } }
        #expect(kinds.first == "configReady" && kinds.dropFirst().first == "started" && kinds.last == "completed")
        #expect(kinds.contains("paused") && kinds.contains("resumed"))
        // The pause held the picture for about 0.3 s.
        let times = output.times
        #expect(zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0 > 0.25)
    }

    @Test func loopsPlayAgainAndTheLastFrameCanBeCleared() async throws {
        let path = try Paths.sharedFixtures("vap").appendingPathComponent("demo.mp4").path
        let output = HeadlessVideoOutput()
        let player = try VAPPlayer(path: path, configuration: .init(framesPerSecond: 60, loops: 2, keepsLastFrame: false, checkerboard: false),
                                   video: { output }, audio: nil)
        let events = await Self.events(of: player) { _, _ in }
        guard case .completed(let shown, let dropped, let loops)? = events.last else {
            Issue.record("no completion: \(events.last.map { "\($0)" } ?? "none")")
            return
        }
        #expect(shown == 160 && dropped == 0 && loops == 2)
        // 160 frames, then the cleared picture, timed after the last frame.
        #expect(output.presentations.count == 161)
        #expect(abs((output.presentations.last?.pts ?? 0) - 80.0 / 60) < 0.002)
    }
}

extension VAPPlayerTests {
    /// `waitUntilFinished()` returns once playback has ended, and a cancelled waiter returns
    /// at once while the player goes on (an endless loop here).
    @Test func waitingEndsWithPlaybackOrWithTheWaitersCancellation() async throws {
        let path = try Paths.sharedFixtures("vap").appendingPathComponent("demo.mp4").path
        let output = HeadlessVideoOutput()
        let player = try VAPPlayer(path: path, configuration: .init(framesPerSecond: 60, loops: 0), video: { output }, audio: nil)
        await player.waitUntilFinished()  // never started: nothing to wait for
        player.play()
        let waiter = Task { () -> Bool in
            await player.waitUntilFinished()
            return Task.isCancelled
        }
        // Deadlines per phase: in a busy test run this task may wait long for a thread.
        // Counted in all: starved of a thread for minutes (it was, once, in a full run), this
        // task could find the output's log of the latest 10,000 full.
        var deadline = Date().addingTimeInterval(30)
        while output.presentedCount < 10 && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        waiter.cancel()
        #expect(await waiter.value, "the waiter returned only because it was cancelled")
        let shownAtCancel = output.presentedCount
        deadline = Date().addingTimeInterval(30)
        while output.presentedCount < shownAtCancel + 10 && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(output.presentedCount >= shownAtCancel + 10, "the player goes on after its waiter is cancelled")
        player.stop()
        await player.waitUntilFinished()
        var completed = false
        for await event in player.events { if case .completed = event { completed = true } }
        #expect(completed, "the events stream has finished, with the completion in it")
    }
}

extension VAPPlayerTests {
    /// A file cut short plays what it has, then fails with the reader's typed error
    /// underneath, and the events stream ends. The `mdat` box is cut with the file (its
    /// size says so), so the file opens and the samples past the end fail as they come.
    @Test func aFileCutShortFailsWithTheTypedErrorUnderneath() async throws {
        let source = try Paths.sharedFixtures("vap").appendingPathComponent("demo.mp4")
        let data = try Data(contentsOf: source)
        let mdat = try #require(MP4Patches.topLevelBoxes(data).first { $0.type == "mdat" })
        var cut = Data(data.prefix(data.count / 2))
        let mdatSize = UInt32(cut.count - mdat.range.lowerBound)
        cut.replaceSubrange(mdat.range.lowerBound..<mdat.range.lowerBound + 4, with: withUnsafeBytes(of: mdatSize.bigEndian) { Data($0) })
        let path = try Paths.temporaryDirectory().appendingPathComponent("half.mp4").path
        try cut.write(to: URL(fileURLWithPath: path))
        let player = try VAPPlayer(path: path, configuration: .init(framesPerSecond: 60), video: { HeadlessVideoOutput() }, audio: nil)
        let events = await Self.events(of: player) { _, _ in }
        let shown = events.filter { if case .frameRendered = $0 { true } else { false } }.count
        guard case .failed(let error)? = events.last else {
            Issue.record("no failure: \(events.last.map { "\($0)" } ?? "none")")
            return
        }
        #expect(shown > 10 && shown < 80, "\(shown) frames shown before the failure")
        guard case .unreadable(let detail)? = error.underlying as? VAPError else {
            Issue.record("not a VAPError underneath: \(error.underlying)")
            return
        }
        #expect(detail.contains("beyond the end of the file") && error.description.contains("beyond the end"), "\(error)")
        print("VAP file cut short: \(shown) frames shown, then \(error)")
    }
}

/// A value shared with a closure that runs on another thread.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
