import Foundation
import Reel
import Testing

extension PlaybackTests {
    /// What an input says of itself (its tags) reads the same through either engine, as
    /// ffprobe reads it.
    @Suite struct EngineMetadataTests {
        @Test(arguments: PlaybackEngineKind.allCases) func theInputsTagsReadAsFFprobeReadsThem(engine: PlaybackEngineKind) async throws {
            let path = try Fixtures.made("tagged.mkv", [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=1", "-c:v", "libx264",
                "-metadata", "title=A Title", "-metadata", "artist=Somebody", "-metadata", "comment=Made for Reel's tests",
                "-metadata", "genre=Test"])
            let probe = try Processes.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", path])
            let json = try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any]
            let expected = try #require((json?["format"] as? [String: Any])?["tags"] as? [String: String])
            var configuration = Player.Configuration()
            configuration.engine = .only(engine)
            let player = Player.headless(configuration: configuration)
            try await player.open(path)
            let tags = try #require(player.mediaInfo?.format.tags)
            player.stop()
            // Matroska's tags keep their upper case in FFmpeg (`ARTIST`); a key is a key in any case.
            func value(_ key: String, in tags: [String: String]) -> String? { tags.first { $0.key.lowercased() == key }?.value }
            for key in ["title", "artist", "comment", "genre"] {
                let ours = value(key, in: tags)
                #expect(ours != nil && ours == value(key, in: expected), "\(engine): \(key): \(ours ?? "none") against ffprobe's \(expected)")
            }
        }
    }
}
