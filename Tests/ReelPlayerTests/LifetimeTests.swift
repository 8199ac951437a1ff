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
        let events: AsyncStream<PlayerEvent>
        do {
            let player = Player(configuration: Player.Configuration(), frameTap: FrameTap(), videoOutput: { RecordingOutput(clock: clock) },
                                audioOutput: { nil }, clock: clock, openEngine: { _, _, _, _, _, _, _ in
                                    let engine = ScriptedEngine(clock: clock, duration: 4, audio: false)
                                    engine.drivesItself = true
                                    return engine
                                })
            events = player.events
            try await player.open("scripted://clip")
            player.play()
            #expect(player.state == .playing)
            if stoppedFirst { player.stop() }
        }
        // The player's deinit finishes its event stream: a player still held never gets
        // there, and the test runs into its time limit.
        for await _ in events {}
    }
}
