import Foundation
import Testing

extension PlaybackTests {
    // Among the real-time suites: these encode with every core, which would disturb them.
    /// A writer killed mid-way (SIGKILL: nothing of Reel's runs after it) leaves no file under
    /// the name asked for, only its hidden `.NAME.partial-PID`; a writer that finishes leaves
    /// the file and nothing hidden.
    @Suite(.serialized) struct KilledWriterTests {
        struct Command: CustomStringConvertible, Sendable {
            var name: String
            /// The arguments, writing to `output` in a directory of its own; the first run is
            /// long enough to be killed, the second short enough to finish.
            var killed: @Sendable (_ output: String) throws -> [String]
            var finished: @Sendable (_ output: String) throws -> [String]
            var output: String
            var description: String { name }
        }

        static let commands: [Command] = [
            Command(name: "encode", killed: { ["encode", "--camera", "640x360@25", "--duration", "60", "-o", $0] },
                    finished: { ["encode", "--camera", "320x180@25", "--duration", "1", "-o", $0] }, output: "out.mp4"),
            Command(name: "encode-annexb", killed: { ["encode", "--camera", "640x360@25", "--duration", "60", "-o", $0] },
                    finished: { ["encode", "--camera", "320x180@25", "--duration", "1", "-o", $0] }, output: "out.h264"),
            Command(name: "pano render", killed: { ["pano", "render", try KilledWriterTests.panorama(seconds: 60), "-o", $0, "--size", "1280x720"] },
                    finished: { ["pano", "render", try KilledWriterTests.panorama(seconds: 1), "-o", $0, "--size", "320x180"] }, output: "view.mp4"),
            Command(name: "vap pack", killed: { ["vap", "pack", try KilledWriterTests.frames(count: 400), "-o", $0, "--fps", "25"] },
                    finished: { ["vap", "pack", try KilledWriterTests.frames(count: 10), "-o", $0, "--fps", "25"] }, output: "gift.mp4"),
        ]

        static func panorama(seconds: Int) throws -> String {
            try Fixtures.made("equirect-\(seconds)s.mp4", ["-f", "lavfi", "-i", "testsrc=size=1536x768:rate=25:duration=\(seconds)",
                                                          "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
        }

        /// `count` RGBA pictures with alpha, numbered from 0, as `reel vap pack` reads them.
        static func frames(count: Int) throws -> String {
            let directory = Fixtures.directory.appendingPathComponent("pack-frames-\(count)")
            let pattern = directory.appendingPathComponent("%04d.png").path
            if !FileManager.default.fileExists(atPath: String(format: pattern, count - 1)) {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                                                        "testsrc2=size=720x720:rate=25,format=rgba,colorchannelmixer=aa=0.6",
                                                        "-frames:v", "\(count)", "-start_number", "0", pattern])
                guard made.status == 0 else { throw TestSetupError("ffmpeg: \(made.stderr)") }
            }
            return pattern
        }

        static func contents(_ directory: URL) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        }

        @Test(.timeLimit(.minutes(3)), arguments: commands)
        func aKilledWriterLeavesNothingUnderTheFinalName(_ command: Command) throws {
            let directory = try Paths.temporaryDirectory()
            let output = directory.appendingPathComponent(command.output)
            let writer = try BackgroundProcess(Paths.reel, try command.killed(output.path))
            // Kill it once it has written something.
            let deadline = Date().addingTimeInterval(60)
            var partial: String?
            while partial == nil && writer.isRunning && Date() < deadline {
                partial = try Self.contents(directory).first { name in
                    name.hasPrefix(".") && ((try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? Int) ?? 0) > 0
                }
                if partial == nil { Thread.sleep(forTimeInterval: 0.01) }
            }
            #expect(writer.isRunning, "the writer ended before it could be killed")
            writer.kill()
            let left = try Self.contents(directory)
            #expect(partial != nil, "nothing was being written: \(left)")
            #expect(left.allSatisfy { $0.hasPrefix(".") }, "a file under a visible name after the kill: \(left)")

            let finishedDirectory = try Paths.temporaryDirectory()
            let finishedOutput = finishedDirectory.appendingPathComponent(command.output).path
            let run = try Processes.run(Paths.reel, try command.finished(finishedOutput), timeout: 120)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try Self.contents(finishedDirectory) == [command.output])
            let decoded = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", finishedOutput, "-f", "null", "-"])
            #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(decoded.stderr)")
        }
    }
}
