import Foundation
@testable import ReelPlayer
import ReelCore
import Testing

/// The end of an input, as the player's own threads reach it (untimed, on a fake engine).
@Suite struct EndTests {
    /// The player has ended before its end is heard, so a `play()` in answer to the event
    /// starts the input again from its beginning. (A loaded run once saw such a `play()`
    /// land while the player still said it was playing: nothing played again.)
    @Test(.timeLimit(.minutes(1))) func aPlayInAnswerToTheEndPlaysTheInputAgain() async throws {
        var configuration = Player.Configuration()
        configuration.untimed = true
        let harness = PlayerHarness(configuration: configuration) { _, _, clock, _ in
            ScriptedEngine(clock: clock, duration: 0.4, audio: false)
        }
        let ends = { harness.events.count { if case .endOfStream = $0 { true } else { false } } }
        try await harness.player.open("clip.mp4")
        harness.player.play()
        for pass in 1...3 {
            #expect(await harness.events.wait { _ in ends() >= pass }, "pass \(pass): \(harness.events.all)")
            #expect(harness.player.state == .ended, "pass \(pass)")
            if pass < 3 { harness.player.play() }
        }
        let pictures = (0..<10).map { Double($0) * 0.04 }
        let shown = try #require(harness.video).shown.map(\.pts)
        #expect(shown.count == 30 && zip(shown, pictures + pictures + pictures).allSatisfy { abs($0 - $1) < 1e-9 }, "\(shown)")
        harness.player.stop()
    }
}
