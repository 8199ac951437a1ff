import Foundation
import Reel
import ReelCore

/// The soak's file player: one headless ``Player`` kept busy for a while with a random call
/// every second (play, pause, a keyframe or exact seek, a rate, another audio track), as a
/// restless user would, and started over at each end. Seeded, so a run that found something
/// can be repeated call for call.
struct PlayerChurn {
    var seconds: Double
    var seed: UInt64 = 1

    /// Returns the calls made; throws the first error the player reports.
    func run(_ input: String) async throws -> [String: Int] {
        let player = Player.headless()
        try await player.open(input)
        player.play()
        let duration = player.duration ?? 10
        let audioTracks = player.mediaInfo?.streams.filter { $0.type == .audio }.map(\.index) ?? []
        var random = SeededGenerator(seed: seed)
        var calls: [String: Int] = [:]

        // Ends and errors come as events; the calls go on beside them.
        let watcher = Task {
            for await event in player.events {
                switch event {
                case .endOfStream:
                    player.seek(to: 0)
                    player.play()
                case .error(let error): return error as PlayerError?
                default: continue
                }
            }
            return nil
        }
        let end = monotonicSeconds() + seconds
        while monotonicSeconds() < end {
            try await Task.sleep(for: .seconds(1))
            let call = ["play", "pause", "seek", "seek-exact", "rate", "track"].randomElement(using: &random)!
            switch call {
            case "play": player.play()
            case "pause": player.pause()
            case "seek": player.seek(to: Double.random(in: 0..<duration, using: &random))
            case "seek-exact": player.seek(to: Double.random(in: 0..<duration, using: &random), mode: .exact)
            case "rate": player.rate = [0.5, 0.75, 1, 1.25, 1.5, 2].randomElement(using: &random)!
            default:
                guard let track = audioTracks.randomElement(using: &random) else { continue }
                try await player.selectAudioTrack(track)
            }
            calls[call, default: 0] += 1
        }
        watcher.cancel()
        player.stop()
        if let error = await watcher.value { throw error }
        return calls
    }
}
