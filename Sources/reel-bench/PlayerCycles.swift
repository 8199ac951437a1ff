import Foundation
import Reel

/// LeakSanitizer's workload (scripts/sanitize.sh): a new headless ``Player`` per cycle that
/// opens a file, plays, seeks (keyframe, then exact), reopens it for an audio track, plays
/// on and stops, then is let go.
/// Memory still held at exit that no global reaches is a leak; a leak per cycle shows up
/// as `cycles` blocks from one allocation site.
enum PlayerCycles {
    static func run(_ input: String, cycles: Int) async throws {
        for cycle in 0..<cycles {
            let player = Player.headless()
            try await player.open(input)
            player.play()
            try await Task.sleep(for: .milliseconds(200))
            let duration = player.duration ?? 1
            player.seek(to: duration * Double(cycle % 5 + 1) / 7)
            try await Task.sleep(for: .milliseconds(150))
            player.seek(to: duration * Double(cycle % 3 + 1) / 5, mode: .exact)
            try await Task.sleep(for: .milliseconds(150))
            if let audio = player.mediaInfo?.streams.first(where: { $0.type == .audio }) {
                try await player.selectAudioTrack(audio.index)
                try await Task.sleep(for: .milliseconds(150))
            }
            player.stop()
        }
    }
}
