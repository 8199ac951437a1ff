import Foundation
@testable import ReelPlayer
import ReelCore
import Testing

/// A player an application lets go is freed (its deinit ends the display thread): a
/// program that makes a player per file would otherwise keep a thread and the last
/// session for each.
@Suite struct LifetimeTests {
    @Test(.timeLimit(.minutes(1)), arguments: [true, false]) func aPlayerLetGoIsFreed(stoppedFirst: Bool) async throws {
        let clock = ManualPlaybackClock(at: 100)
        weak var released: Player?
        do {
            let player = Player(configuration: Player.Configuration(), frameTap: FrameTap(), videoOutput: { RecordingOutput(clock: clock) },
                                audioOutput: { nil }, clock: clock, openEngine: { _, _, _, _, _, _, _ in
                                    let engine = ScriptedEngine(clock: clock, duration: 4, audio: false)
                                    engine.drivesItself = true
                                    return engine
                                })
            released = player
            try await player.open("scripted://clip")
            player.play()
            #expect(await Self.eventually { player.state == .playing })
            if stoppedFirst { player.stop() }
        }
        #expect(await Self.eventually { released == nil }, "the player is still held")
    }

    /// Whether `condition` holds within `timeout` seconds, polled without holding a thread.
    private static func eventually(timeout: Double = 10, _ condition: () -> Bool) async -> Bool {
        let giveUp = monotonicSeconds() + timeout
        while !condition() {
            if monotonicSeconds() > giveUp { return false }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return true
    }
}
