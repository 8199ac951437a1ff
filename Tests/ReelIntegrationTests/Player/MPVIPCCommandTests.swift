import Foundation
import Reel
import Testing

extension ServerPlaybackTests {
    /// `reel play --input-ipc-server`: clients written for mpv drive Reel. The same socat
    /// requests go to mpv and to Reel and must be answered alike; python-mpv-jsonipc (from
    /// PyPI, written for mpv) plays, seeks, pauses, takes a screenshot and quits, and
    /// the screenshot is compared with ffmpeg's picture of that moment.
    @Suite(.serialized) struct MPVIPCCommandTests {
        /// 10 s at 25 fps (a keyframe each second) with a sine tone.
        private func clip() throws -> String {
            try Fixtures.made("ipc-10s.mkv", [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=10", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=10",
                "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        }

        /// The requests socat sends, each with its request id: what any client reads first.
        static let requests = [
            #"["get_property", "duration"]"#, #"["get_property", "width"]"#, #"["get_property", "height"]"#,
            #"["get_property", "pause"]"#, #"["get_property", "volume"]"#, #"["set_property", "volume", 50]"#,
            #"["get_property", "volume"]"#, #"["get_property_string", "pause"]"#, #"["get_property", "filename"]"#,
            #"["get_property", "aid"]"#, #"["get_property", "sid"]"#, #"["get_property", "time-pos"]"#, #"["get_property", "percent-pos"]"#,
            #"["get_property", "chapter"]"#, #"["get_property", "no-such-property"]"#, #"["no-such-command"]"#,
            #"["set_property", "volume", "loud"]"#, #"["set_property", "track-list", []]"#, #"["seek", 2, "sideways"]"#,
            #"["get_property", "eof-reached"]"#, #"["get_property", "idle-active"]"#, #"["get_version"]"#,
        ]

        /// Starts `command` (listening at `socket`), waits until it answers for a loaded
        /// file, sends every request through socat, and returns the replies by request id.
        private func answers(of command: [String], socket: String, errors: String) throws -> [Int: [String: JSONValue]] {
            let player = try BackgroundProcess(command[0], Array(command.dropFirst()), errorPath: errors)
            defer { player.stop() }
            let lines = Self.requests.enumerated().map { #"{"command": \#($1), "request_id": \#($0 + 1)}"# }.joined(separator: "\n")
            // socat waits 2 s after the last request for the replies.
            let script = """
                until printf '{"command": ["get_property", "duration"]}\\n' | socat -t 1 - UNIX-CONNECT:\(socket) 2>/dev/null | grep -q success; do
                  kill -0 \(player.pid) 2>/dev/null || exit 3; sleep 0.1
                done
                printf '%s\\n' '\(lines)' | socat -t 2 - UNIX-CONNECT:\(socket)
                """
            let result = try Processes.run("sh", ["-c", script], timeout: 60)
            try #require(result.status == 0, "socat: \(result.status) \(result.stderr) \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
            var replies: [Int: [String: JSONValue]] = [:]
            for line in result.stdout.split(separator: "\n") {
                guard case .object(let fields)? = JSONValue(parsing: String(line)), let id = fields["request_id"]?.integer else { continue }
                replies[id] = fields
            }
            return replies
        }

        @Test(.timeLimit(.minutes(2))) func socatRequestsAreAnsweredAsMpvAnswersThem() throws {
            let clip = try clip()
            let directory = try Paths.temporaryDirectory()
            let (mpvSocket, reelSocket) = (directory.appendingPathComponent("mpv.sock").path, directory.appendingPathComponent("reel.sock").path)
            let mpv = try answers(of: ["/usr/bin/mpv", "--no-config", "--vo=null", "--ao=null", "--pause", "--input-ipc-server=\(mpvSocket)", clip],
                                  socket: mpvSocket, errors: directory.appendingPathComponent("mpv.txt").path)
            let reel = try answers(of: [Paths.reel, "play", "--headless", "--pause", "--input-ipc-server", reelSocket, clip],
                                   socket: reelSocket, errors: directory.appendingPathComponent("reel.txt").path)
            try #require(mpv.count == Self.requests.count, "mpv answered \(mpv.count) of \(Self.requests.count): \(mpv)")
            for (index, request) in Self.requests.enumerated() {
                let (expected, got) = (mpv[index + 1] ?? [:], reel[index + 1] ?? [:])
                #expect(got["error"] == expected["error"], "\(request): mpv \(expected), Reel \(got)")
                switch (expected["data"], got["data"]) {
                case (let a?, let b?) where a.double != nil:
                    // The same file's numbers: durations as both demuxers read them. Reel's
                    // position is its first picture's (21 ms in), mpv's 0: 0.2 % of 10 s.
                    let tolerance = request.contains("percent-pos") ? 0.5 : 0.05
                    #expect(b.double.map { abs($0 - a.double!) < tolerance } == true, "\(request): mpv \(a), Reel \(b)")
                case (let a, let b):
                    #expect(a == b, "\(request): mpv \(a.map(\.jsonText) ?? "no data"), Reel \(b.map(\.jsonText) ?? "no data")")
                }
            }
        }

        @Test(.timeLimit(.minutes(2))) func pythonMpvJsonipcPlaysSeeksPausesTakesAPictureAndQuits() throws {
            let clip = try clip()
            let directory = try Paths.temporaryDirectory()
            let socket = directory.appendingPathComponent("reel.sock").path
            let shot = directory.appendingPathComponent("shot.png").path
            let errors = directory.appendingPathComponent("reel.txt").path
            let player = try BackgroundProcess(Paths.reel, ["play", "--headless", "--pause", "--input-ipc-server", socket, clip], errorPath: errors)
            defer { player.stop() }
            let script = """
                import os, sys, threading, time
                from python_mpv_jsonipc import MPV
                socket, shot = sys.argv[1], sys.argv[2]
                deadline = time.monotonic() + 30
                while not os.path.exists(socket):
                    if time.monotonic() > deadline: sys.exit("no socket")
                    time.sleep(0.05)
                mpv = MPV(start_mpv=False, ipc_socket=socket)
                def wait(condition, what):
                    deadline = time.monotonic() + 20
                    while not condition():
                        if time.monotonic() > deadline: sys.exit("waited for " + what)
                        time.sleep(0.02)
                wait(lambda: mpv.duration is not None, "the file")
                pauses, restarted = [], threading.Event()
                mpv.bind_property_observer("pause", lambda name, value: pauses.append(value))
                mpv.bind_event("playback-restart", lambda event: restarted.set())
                wait(lambda: pauses == [True], "the pause observed")
                print("duration", mpv.duration)
                mpv.pause = False
                wait(lambda: (mpv.time_pos or 0) >= 1, "playing 1 s")
                mpv.pause = True
                wait(lambda: pauses[-1:] == [True], "the pause")
                restarted.clear()
                mpv.command("seek", 5, "absolute+exact")
                wait(restarted.is_set, "the seek")
                print("time-pos", mpv.time_pos)
                mpv.command("screenshot-to-file", shot)
                print("pauses", pauses)
                mpv.command("quit", 4)
                """
            let python = Paths.packageRoot.appendingPathComponent(".cache/python/bin/python").path
            let driven = try Processes.run(python, ["-c", script, socket, shot], timeout: 90)
            #expect(driven.status == 0, "\(driven.stdout)\(driven.stderr)\((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
            #expect(player.waitForExit(within: 20) && player.exitStatus == 4, "quit 4 is the exit code: \(player.exitStatus.map(String.init) ?? "running")")
            // Opened paused, played, paused again: the observer saw each.
            #expect(driven.stdout.contains("pauses [True, False, True]"), "\(driven.stdout)")
            let duration = driven.stdout.split(separator: "\n").first { $0.hasPrefix("duration ") }.flatMap { Double($0.dropFirst(9)) }
            let probed = try Processes.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", clip])
            #expect(duration != nil && abs(duration! - (Double(probed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)) < 0.05,
                    "duration \(duration ?? -1), ffprobe \(probed.stdout)")

            // The picture on screen is the one covering 5 s (an exact seek), ffmpeg's to the
            // bit after the same conversion to RGB, and not its neighbours.
            let times = try videoPackets(clip).compactMap(\.time).sorted()
            let covering = try #require(times.lastIndex { $0 <= 5 + 1e-6 })
            let scores = try [covering - 1, covering, covering + 1].map { index -> Double in
                let reference = directory.appendingPathComponent("picture-\(index).png").path
                let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-ss", String(times[index]), "-i", clip, "-frames:v", "1", "-vf",
                                                        "scale=flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgb24", reference])
                try #require(made.status == 0, "\(made.stderr)")
                return try VirtualDisplay.psnr(shot, crop: (0, 0, 160, 120), against: reference)
            }
            #expect(scores[1] >= 40 && scores[1] > scores[0] && scores[1] > scores[2], "PSNR against the pictures at \(times[covering - 1...covering + 1]) s: \(scores)")
        }
    }
}
