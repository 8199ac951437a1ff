import Foundation
import Testing

extension PlaybackTests {
    // Among the real-time suites: these encode with every core, which would disturb them.
    /// A recording on a disk that fills up (a 180 KiB tmpfs, mounted by the test): one clear
    /// line, a failing exit status, and the recording plays, bit-exact, up to the last
    /// keyframe before the disk filled.
    @Suite(.serialized) struct DiskFullTests {
        @Test(.timeLimit(.minutes(2))) func aRecordingThatFillsTheDiskSaysSoAndWhatItHoldsPlays() throws {
            let directory = try Paths.temporaryDirectory()
            let disk = directory.appendingPathComponent("small-disk")
            try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
            let mounted = try Processes.run("mount", ["-t", "tmpfs", "-o", "size=180k", "tmpfs", disk.path])
            try #require(mounted.status == 0, "mount: \(mounted.stderr)")
            defer { _ = try? Processes.run("umount", ["-l", disk.path]) }

            // Three seconds with a keyframe every second, B-frames, about 100 KB a second.
            let sent = try RTPStreams.sent("b-frames")
            let port = try RTPStreams.freePortPair()
            let sdp = try RTPStreams.writeSDP(for: sent, to: "rtp://127.0.0.1:\(port)", in: directory)
            let recording = disk.appendingPathComponent("got.mp4").path
            let receiver = try RTPStreams.Receiver(["--sdp", sdp, "--record", recording, "--idle-timeout", "1.5"], directory: directory)
            try RTPStreams.waitUntilBound(port)
            let sending = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", sent, "-c", "copy", "-f", "rtp", "rtp://127.0.0.1:\(port)"])
            #expect(sending.status == 0, "\(sending.stderr)")
            receiver.process.waitForExit(within: 30)
            #expect(receiver.process.exitStatus == 1)
            let errors = try String(contentsOfFile: receiver.errorPath, encoding: .utf8).split(separator: "\n").filter { !$0.isEmpty }
            #expect(errors.count == 1 && errors[0].contains("got.mp4") && errors[0].contains("No space left on device") && errors[0].contains("kept and plays"), "\(errors)")

            let expected = try RTPStreams.frameHashes(sent)
            let got = try RTPStreams.frameHashes(recording)
            #expect(got.count >= 25 && got.count < expected.count && got.count % 25 == 0, "\(got.count) frames kept: whole seconds, a fragment each")
            #expect(got == Array(expected.prefix(got.count)), "the kept frames are the first ones sent, bit-exact")
            print("Disk full while recording: \(got.count) of \(expected.count) frames kept and decodable; \(errors.first ?? "")")
        }
    }
}
