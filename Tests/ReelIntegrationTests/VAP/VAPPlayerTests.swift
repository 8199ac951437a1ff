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

    @Test func seekPauseAndResumeAreReportedAndObeyed() async throws {
        let path = try Paths.sharedFixtures("vap").appendingPathComponent("demo.mp4").path
        let output = HeadlessVideoOutput()
        let player = try VAPPlayer(path: path, options: .init(framesPerSecond: 60), video: { output }, audio: nil)
        let events = await Self.events(of: player) { player, event in
            guard case .frameRendered(let index, _, _) = event else { return }
            if index == 5 { player.seek(toFrame: 60) }
            if index == 62 { player.pause() }
            if index == 62 { DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { player.resume() } }
        }
        let frames = events.compactMap { event -> Int? in if case .frameRendered(let index, _, _) = event { return index } else { return nil } }
        #expect(frames.prefix(7) == [0, 1, 2, 3, 4, 5, 60] || frames.prefix(8) == [0, 1, 2, 3, 4, 5, 6, 60], "\(frames.prefix(10))")
        #expect(frames.last == 79)
        let kinds = events.map { "\($0)".prefix { $0 != "(" } }
        #expect(kinds.first == "configReady" && kinds.dropFirst().first == "started" && kinds.last == "completed")
        #expect(kinds.contains("paused") && kinds.contains("resumed"))
        // The pause held the picture for about 0.3 s.
        let times = output.presentations.map(\.deviceTime)
        #expect(zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0 > 0.25)
    }

    @Test func loopsPlayAgainAndTheLastFrameCanBeCleared() async throws {
        let path = try Paths.sharedFixtures("vap").appendingPathComponent("demo.mp4").path
        let output = HeadlessVideoOutput()
        let player = try VAPPlayer(path: path, options: .init(framesPerSecond: 60, loops: 2, keepsLastFrame: false, checkerboard: false),
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
