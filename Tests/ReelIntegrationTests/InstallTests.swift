import Foundation
import Reel
import Testing

/// `reel --version`, and `scripts/install.sh`: the command, its manual page and its
/// completions, checked by the programs that read them (man, bash, fish, zsh).
@Suite struct InstallTests {
    @Test func versionNamesTheLibrariesAsTheirOwnToolsReportThem() throws {
        let result = try reel("--version")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "reel \(ReelRelease.version)")

        // ffmpeg's "libavcodec     59. 37.100 / 59. 37.100": the second is the library it runs on.
        let ffmpeg = try Processes.run("ffmpeg", ["-hide_banner", "-version"]).stdout
        func running(_ library: String) -> String? {
            guard let line = ffmpeg.split(separator: "\n").first(where: { $0.hasPrefix(library + " ") }),
                  let linked = line.split(separator: "/").last else { return nil }
            return linked.replacingOccurrences(of: " ", with: "")
        }
        let sdl = try Processes.run("pkg-config", ["--modversion", "sdl2"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let expected = "Lavf\(running("libavformat") ?? "?") Lavc\(running("libavcodec") ?? "?") SDL \(sdl)"
        #expect(lines.dropFirst().first == expected)
    }

    @Test(.timeLimit(.minutes(10))) func installPutsTheCommandItsManualAndCompletionsUnderAPrefix() async throws {
        let prefix = try Paths.temporaryDirectory().path
        let share = prefix + "/share"
        // The install builds argument-parser's manual tool (a minute or more): on a thread of
        // its own, not one of the concurrency pool's, which other tests need meanwhile.
        let install: ProcessResult? = await withCheckedContinuation { continuation in
            Thread {
                let result = try? Processes.run("bash", [Paths.packageRoot.appendingPathComponent("scripts/install.sh").path, prefix],
                                                timeout: 540, environment: ["REEL_BIN": Paths.reel])
                continuation.resume(returning: result)
            }.start()
        }
        #expect(install?.status == 0, "\(install?.stdout ?? "")\n\(install?.stderr ?? "")")

        let installed = try Processes.run(prefix + "/bin/reel", ["--version"])
        #expect(installed.stdout.hasPrefix("reel \(ReelRelease.version)\n"))

        // man renders the page, with every subcommand and an option of each level.
        let page = try Processes.run("man", ["-P", "cat", "-l", share + "/man/man1/reel.1"], environment: ["MANWIDTH": "100", "LANG": "C.UTF-8"])
        #expect(page.status == 0, "\(page.stderr)")
        for word in ["play", "probe", "decode", "pano", "vap", "encode", "rtp", "--headless", "--log-level"] {
            #expect(page.stdout.contains(word), "the manual page lacks \(word)")
        }

        // bash offers the subcommand for `reel pl` and the option for `reel play --hea`.
        let bashCompletion = share + "/bash-completion/completions/reel"
        func bashCompletes(_ words: [String]) throws -> String {
            let script = """
                source "$1"; shift
                COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
                _reel reel "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            return try Processes.run("bash", ["-c", script, "bash", bashCompletion] + words).stdout
        }
        #expect(try bashCompletes(["reel", "pl"]).split(separator: "\n") == ["play"])
        #expect(try bashCompletes(["reel", "play", "--hea"]).split(separator: "\n") == ["--headless"])

        // fish, asked as its command line asks.
        let fish = try Processes.run("fish", ["-c", "source $argv[1]; complete -C 'reel pl'; complete -C 'reel play --hea'",
                                              share + "/fish/vendor_completions.d/reel.fish"])
        let offered = fish.stdout.split(separator: "\n").map { $0.prefix { $0 != "\t" } }
        #expect(offered == ["play", "--headless"], "fish: \(fish.stdout) \(fish.stderr)")

        // zsh reads its script without a syntax error.
        let zsh = try Processes.run("zsh", ["-n", share + "/zsh/site-functions/_reel"])
        #expect(zsh.status == 0, "\(zsh.stderr)")
    }
}
