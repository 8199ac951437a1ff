import Foundation
@testable import ReelPlayer
import ReelCore
import Testing

/// A playlist's items one after another through scripted engines: skipped failures,
/// mpv's loops, the end once. Untimed, so each item plays as fast as it is handed over.
@Suite(.serialized) struct PlaylistTransitionTests {
    private static var untimed: Player.Configuration {
        var configuration = Player.Configuration()
        configuration.untimed = true
        return configuration
    }

    private static func isItemStarted(_ index: Int) -> (PlayerEvent) -> Bool {
        { if case .itemStarted(let started, _) = $0 { started == index } else { false } }
    }

    @Test(.timeLimit(.minutes(1))) func itemsPlayInOrderAFailureIsSkippedAndTheEndComesOnce() async throws {
        let harness = PlayerHarness(configuration: Self.untimed) { _, url, clock, _ in
            guard url != "b.mp4" else { throw InputError(.notFound, operation: .open, url: url) }
            return ScriptedEngine(clock: clock, duration: 0.4, audio: false)
        }
        try await harness.player.open(try #require(Playlist(["a.mp4", "b.mp4", "c.mp4"])))
        harness.player.play()
        #expect(await harness.events.wait { if case .endOfStream = $0 { true } else { false } }, "\(harness.events.all)")
        #expect(await harness.wait { harness.player.state == .ended })
        #expect(harness.openings.map(\.url) == ["a.mp4", "b.mp4", "c.mp4"])
        let items = harness.events.all.compactMap { event -> String? in
            switch event {
            case .itemStarted(let index, _): "started \(index)"
            case .itemFailed(let index, _, _): "failed \(index)"
            case .endOfStream: "end"
            default: nil
            }
        }
        #expect(items == ["started 0", "failed 1", "started 2", "end"])
        let engines = harness.madeEngines
        #expect(engines.map { $0.stopped } == [true, false], "the item before stopped, the last one holds its end")
        harness.player.stop()
        #expect(engines.allSatisfy { $0.stopped })
    }

    /// `loopFile` 1 plays each item twice (a seek to its start, no new open); the
    /// list played twice with `loopPlaylist` 2 opens each item again.
    @Test(.timeLimit(.minutes(1))) func loopsReplayTheFileAndTheList() async throws {
        let harness = PlayerHarness(configuration: Self.untimed) { _, _, clock, _ in
            ScriptedEngine(clock: clock, duration: 0.2, audio: false)
        }
        let playlist = try #require(Playlist(["a.mp4", "b.mp4"], loopFile: .times(1), loopPlaylist: .times(2)))
        try await harness.player.open(playlist)
        harness.player.play()
        #expect(await harness.events.wait { if case .endOfStream = $0 { true } else { false } }, "\(harness.events.all)")
        #expect(harness.openings.map(\.url) == ["a.mp4", "b.mp4", "a.mp4", "b.mp4"])
        #expect(harness.madeEngines.map { $0.seeks.map(\.target) } == [[0], [0], [0], [0]], "each file replayed once from its start")
        harness.player.stop()
    }

    /// An item that fails while playing is reported and the next one plays.
    @Test(.timeLimit(.minutes(1))) func anItemThatFailsWhilePlayingMovesOn() async throws {
        let harness = PlayerHarness(configuration: Self.untimed) { n, _, clock, _ in
            ScriptedEngine(clock: clock, duration: n == 0 ? 600 : 0.2, audio: false)
        }
        try await harness.player.open(try #require(Playlist(["a.mp4", "b.mp4"])))
        harness.player.play()
        #expect(await harness.events.wait(for: Self.isItemStarted(0)))
        harness.madeEngines[0].fail(InputError(.invalidData, operation: .read, url: "a.mp4"))
        #expect(await harness.events.wait(for: Self.isItemStarted(1)), "\(harness.events.all)")
        #expect(harness.events.count { if case .itemFailed(0, _, _) = $0 { true } else { false } } == 1)
        #expect(await harness.events.wait { if case .endOfStream = $0 { true } else { false } })
        harness.player.stop()
    }
}
