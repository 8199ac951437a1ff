import Foundation
import Reel
import Testing

extension ServerPlaybackTests {
    /// `reel play` as an MPRIS player, driven by playerctl (the client desktop panels and
    /// media-key daemons use) on a private session bus that dbus-run-session makes.
    @Suite(.serialized) struct MPRISCommandTests {
        @Test(.timeLimit(.minutes(2))) func playerctlSeesAndDrivesThePlayer() throws {
            let clip = try Fixtures.made("ipc-10s.mkv", [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=10", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=10",
                "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac"])
            let directory = try Paths.temporaryDirectory()
            // Each `until` waits for what the player says over D-Bus, up to 20 s.
            let script = #"""
                reel=$1 clip=$2 errors=$3
                "$reel" play --headless --pause "$clip" 2>"$errors" & pid=$!
                until_says() { i=0; until [ "$(playerctl -p reel "$@" 2>/dev/null)" = "$expected" ]; do
                  i=$((i + 1)); [ $i -lt 400 ] || { echo "timeout waiting for $* = $expected"; return 1; }; sleep 0.05; done; }
                expected=Paused; until_says status
                echo "player $(playerctl -l)"
                echo "length $(playerctl -p reel metadata mpris:length)"
                echo "title $(playerctl -p reel metadata xesam:title)"
                echo "url $(playerctl -p reel metadata xesam:url)"
                playerctl -p reel play; expected=Playing; until_says status && echo "played"
                playerctl -p reel pause; expected=Paused; until_says status && echo "paused"
                changed() { before=$(playerctl -p reel position); playerctl -p reel "$@"; i=0
                  while [ "$(playerctl -p reel position)" = "$before" ] && [ $i -lt 400 ]; do i=$((i + 1)); sleep 0.05; done
                  sleep 0.3; playerctl -p reel position; }
                echo "set to 5: $(changed position 5)"
                echo "then 2 s on: $(changed position 2+)"
                playerctl -p reel volume 0.5; expected=0.500000; until_says volume && echo "volume 0.5"
                playerctl -p reel play-pause; expected=Playing; until_says status && echo "play-pause"
                playerctl -p reel stop
                wait $pid; echo "exit $?"
                """#
            let errors = directory.appendingPathComponent("reel.txt").path
            let result = try Processes.run("dbus-run-session", ["--", "sh", "-c", script, "mpris", Paths.reel, clip, errors], timeout: 90)
            let output = result.stdout
            let log = "\(output)\(result.stderr)\((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")"
            #expect(output.contains("player reel.instance"), "\(log)")
            let probed = try Processes.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", clip])
            let duration = try #require(Double(probed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
            let length = output.split(separator: "\n").first { $0.hasPrefix("length ") }.flatMap { Double($0.dropFirst(7)) }
            #expect(length.map { abs($0 / 1e6 - duration) < 0.05 } == true, "length \(length ?? -1) µs, ffprobe \(duration) s")
            #expect(output.contains("title ipc-10s.mkv") && output.contains("url file://\(clip)"), "\(log)")
            // SetPosition is exact: the picture covering 5 s; Seek steps to the keyframe at or before.
            let number = { (prefix: String) in output.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Double($0.dropFirst(prefix.count)) } }
            let (exact, stepped) = (try #require(number("set to 5: "), "\(log)"), try #require(number("then 2 s on: "), "\(log)"))
            #expect(exact > 5 - 0.04 - 1e-6 && exact <= 5 + 1e-6, "SetPosition 5 s showed the picture at \(exact) s")
            let keyframe = try #require(try keyframeTimes(clip).last { $0 <= exact + 2 + 1e-6 })
            #expect(abs(stepped - keyframe) < 0.001, "Seek +2 s from \(exact) s showed \(stepped) s, not the keyframe at \(keyframe) s")
            for step in ["played", "paused", "volume 0.5", "play-pause", "exit 0"] {
                #expect(output.split(separator: "\n").contains { $0 == step }, "\(step): \(log)")
            }
        }
    }
}
