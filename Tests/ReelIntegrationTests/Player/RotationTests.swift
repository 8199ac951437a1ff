import Foundation
import Testing

extension LightPlaybackTests {
    /// Display matrices applied as FFmpeg applies them: every frame Reel shows of a turned or
    /// mirrored file equals, byte for byte, what ffmpeg's transpose, hflip and vflip filters make.
    /// Played in real time (an untimed player outruns a y4m tap, which then drops frames).
    @Suite(.serialized) struct RotationTests {
        /// A display matrix, the filters FFmpeg 6.1's command line inserts for it, and whether
        /// FFmpeg 5.1 (this machine's) rotates by itself the same way (it ignores mirrors).
        struct Case: Sendable, CustomStringConvertible {
            var name: String
            var matrix: [Int32]
            var filters: String
            var shownWidth: Int
            var ffmpegRotatesItself: Bool
            var description: String { name }
        }

        static let one: Int32 = 0x10000
        static let cases: [Case] = [
            Case(name: "90", matrix: [0, one, 0, -one, 0, 0, 0, 0, 0x4000_0000], filters: "transpose=clock", shownWidth: 240, ffmpegRotatesItself: true),
            Case(name: "180", matrix: [-one, 0, 0, 0, -one, 0, 0, 0, 0x4000_0000], filters: "hflip,vflip", shownWidth: 320, ffmpegRotatesItself: true),
            Case(name: "270", matrix: [0, -one, 0, one, 0, 0, 0, 0, 0x4000_0000], filters: "transpose=cclock", shownWidth: 240, ffmpegRotatesItself: true),
            Case(name: "hflip", matrix: [-one, 0, 0, 0, one, 0, 0, 0, 0x4000_0000], filters: "hflip", shownWidth: 320, ffmpegRotatesItself: false),
            Case(name: "vflip", matrix: [one, 0, 0, 0, -one, 0, 0, 0, 0x4000_0000], filters: "vflip", shownWidth: 320, ffmpegRotatesItself: false),
            Case(name: "transpose", matrix: [0, one, 0, one, 0, 0, 0, 0, 0x4000_0000], filters: "transpose=cclock_flip", shownWidth: 240, ffmpegRotatesItself: false),
            Case(name: "antitranspose", matrix: [0, -one, 0, -one, 0, 0, 0, 0, 0x4000_0000], filters: "transpose=clock_flip", shownWidth: 240, ffmpegRotatesItself: false),
        ]

        /// 1 s of 320×240 H.264 with audio, its display matrix patched to `matrix`.
        static func clip(_ testCase: Case) throws -> String {
            try patched(testCase, name: "h264-matrix-\(testCase.name).mp4", video: "testsrc2=size=320x240:rate=25:duration=1", seconds: 1)
        }

        static func patched(_ testCase: Case, name: String, video: String, seconds: Int) throws -> String {
            try CachedFile.at(Fixtures.directory.appendingPathComponent(name).path) { partial in
                let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", video,
                                                        "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)",
                                                        "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", partial])
                guard made.status == 0 else { throw TestSetupError(made.stderr) }
                try MP4Patches.setFirstTrackMatrix(URL(fileURLWithPath: partial), testCase.matrix)
            }
        }

        static func frameHashes(_ arguments: [String]) throws -> [String] {
            let result = try Processes.run("ffmpeg", ["-v", "error", "-nostdin"] + arguments + ["-map", "0:v:0", "-f", "framemd5", "-"])
            guard result.status == 0 else { throw TestSetupError(result.stderr) }
            return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last!.trimmingCharacters(in: .whitespaces)) }
        }

        /// Every frame `reel play --headless` hands its tap, as framemd5 hashes.
        static func tapped(_ clip: String, _ options: String...) throws -> [String] {
            let y4m = try Paths.temporaryDirectory().appendingPathComponent("tap.y4m").path
            let arguments = ["play", "--headless", "--tap", "y4m:\(y4m)"] + options + [clip]
            let result = try Processes.run(Paths.reel, arguments, timeout: 60)
            guard result.status == 0 else { throw TestSetupError("reel \(arguments): \(result.stderr)") }
            return try frameHashes(["-i", y4m])
        }

        @Test(.timeLimit(.minutes(1)), arguments: cases)
        func turnedFramesEqualFFmpegsFilters(_ testCase: Case) throws {
            let clip = try Self.clip(testCase)
            let expected = try Self.frameHashes(["-noautorotate", "-i", clip, "-vf", testCase.filters])
            #expect(expected.count == 25)
            if testCase.ffmpegRotatesItself {
                // This machine's ffmpeg turns these by itself: the same frames.
                #expect(try Self.frameHashes(["-i", clip]) == expected)
            }
            #expect(try Self.tapped(clip, "--tap-rotate") == expected, "turned frames differ from ffmpeg's \(testCase.filters)")
            // Taps hand over the decoded frames unless asked.
            #expect(try Self.tapped(clip) == Self.frameHashes(["-noautorotate", "-i", clip]))
        }

        @Test(.timeLimit(.minutes(1))) func rotateOverridesOrAddsToTheFile() throws {
            let clip = try Self.clip(Self.cases[0])   // 90° clockwise
            let decoded = try Self.frameHashes(["-noautorotate", "-i", clip])
            #expect(try Self.tapped(clip, "--tap-rotate", "--rotate", "no") == decoded)
            #expect(try Self.tapped(clip, "--tap-rotate", "--rotate", "270") == Self.frameHashes(["-noautorotate", "-i", clip, "-vf", "transpose=cclock"]))
            #expect(try Self.tapped(clip, "--tap-rotate", "--rotate", "+90") == Self.frameHashes(["-noautorotate", "-i", clip, "-vf", "hflip,vflip"]))
            let refused = try reel("play", "--headless", "--rotate", "45", clip)
            #expect(refused.status != 0 && refused.stderr.contains("--rotate"), "\(refused.stderr)")
        }
    }

    /// Turned video where people look at it: snapshots and the window (real time).
    @Suite(.serialized) struct RotatedDisplayTests {
        static func psnr(_ picture: String, againstFrame index: Int, of clip: String, turnedBy filters: String) throws -> Double {
            // ffmpeg's frame, turned and made RGB with libswscale's accurate path, as Reel's snapshots and window do.
            let compare = try Processes.run("ffmpeg", ["-v", "info", "-nostdin", "-i", picture, "-noautorotate", "-i", clip, "-lavfi",
                                                       "[1:v]select=eq(n\\,\(index)),\(filters),scale=flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgb24[b];[0:v]format=rgb24[a];[a][b]psnr",
                                                       "-frames:v", "1", "-f", "null", "-"])
            guard let range = compare.stderr.range(of: "average:") else { throw TestSetupError("no PSNR in: \(compare.stderr)") }
            let value = compare.stderr[range.upperBound...].prefix { !$0.isWhitespace }
            return value == "inf" ? .infinity : Double(value) ?? 0
        }

        @Test(.timeLimit(.minutes(1)), arguments: [RotationTests.cases[0], RotationTests.cases[5]])
        func snapshotsAreTurned(_ testCase: RotationTests.Case) throws {
            let clip = try RotationTests.clip(testCase)
            let snapshot = try Paths.temporaryDirectory().appendingPathComponent("at-half.png").path
            let result = try reel("play", "--headless", "--snapshot", "0.5:\(snapshot)", clip, timeout: 60)
            #expect(result.status == 0, "\(result.stderr)")
            let probe = try Processes.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", snapshot])
            #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(testCase.shownWidth),\(560 - testCase.shownWidth)")
            // On screen at 0.5 s: frame 12 (0.48 s).
            let quality = try Self.psnr(snapshot, againstFrame: 12, of: clip, turnedBy: testCase.filters)
            #expect(quality >= 40, "snapshot PSNR \(quality) dB")
        }

        @Test(.timeLimit(.minutes(2))) func aPhoneVideoStandsUprightInTheWindow() throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let testCase = RotationTests.cases[0]
            let clip = try RotationTests.clip(testCase)
            let (player, window) = try display.play(["--pause", "--start", "0.48", clip])
            defer { player.stop() }
            // Portrait: 240 wide, 320 high, and the bar below.
            #expect(window.width == 240 && window.height == 320 + 28, "window \(window)")
            let shot = try Paths.temporaryDirectory().appendingPathComponent("shot.png").path
            let crop = try Paths.temporaryDirectory().appendingPathComponent("crop.png").path
            let quality = try display.waitFor({
                try display.screenshot(to: shot)
                let cut = try Processes.run("ffmpeg", ["-v", "error", "-y", "-i", shot, "-vf", "crop=240:320:\(window.x):\(window.y)", crop])
                guard cut.status == 0 else { throw TestSetupError(cut.stderr) }
                return try Self.psnr(crop, againstFrame: 12, of: clip, turnedBy: testCase.filters)
            }, until: { $0 >= 35 })
            #expect(quality >= 35, "window PSNR \(quality) dB against ffmpeg's turned frame")
            print("rotated window against ffmpeg's transpose=clock frame: PSNR \(String(format: "%.1f", quality)) dB")
        }
        /// Picture-in-picture takes the tap's decoded frames and turns them as they say: the
        /// small window stands upright too (left red, right blue, turned: red above blue).
        @Test(.timeLimit(.minutes(1))) func pictureInPictureIsTurnedToo() throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let clip = try RotationTests.patched(RotationTests.cases[0], name: "red-left-blue-right-90.mp4",
                                                 video: "color=c=red:s=320x240:r=25:d=4,drawbox=x=160:y=0:w=160:h=240:c=blue:t=fill", seconds: 4)
            let player = try BackgroundProcess(Paths.reel, ["play", "--pip", clip], environment: ["DISPLAY": display.name])
            defer { player.stop() }
            let small = try #require(try display.window(titled: "picture-in-picture"), "no picture-in-picture window")
            #expect(small.width == 240 && small.height == 320, "picture-in-picture window \(small)")
            let shot = try Paths.temporaryDirectory().appendingPathComponent("pip.png").path
            func isRed(_ colour: [Int]?) -> Bool { colour.map { $0[0] > 200 && $0[2] < 50 } == true }
            func isBlue(_ colour: [Int]?) -> Bool { colour.map { $0[2] > 200 && $0[0] < 50 } == true }
            let colours = try display.waitFor({
                try display.screenshot(to: shot)
                return try ["top": small.y + 20, "bottom": small.y + 220].mapValues { top -> [Int] in
                    let pixel = shot + ".\(top).rgb"
                    _ = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", shot, "-vf",
                                                     "crop=200:80:\(small.x + 20):\(top),scale=1:1:flags=area,format=rgb24", "-f", "rawvideo", pixel])
                    return try Data(contentsOf: URL(fileURLWithPath: pixel)).prefix(3).map(Int.init)
                }
            }, until: { isRed($0["top"]) && isBlue($0["bottom"]) })
            #expect(isRed(colours["top"]), "the top of the small window is \(colours), not red")
            #expect(isBlue(colours["bottom"]), "the bottom of the small window is \(colours), not blue")
        }
    }
}
