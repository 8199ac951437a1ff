import Foundation
import Testing

extension LightPlaybackTests {
    /// `reel play --tap`: frames out of the process, read back by ffmpeg.
    @Suite(.serialized) struct TapCommandTests {
        /// The MD5 column of `ffmpeg -f framemd5` of `path`'s first video stream.
        private func frameHashes(_ path: String) throws -> [String] {
            let result = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-map", "0:v:0", "-f", "framemd5", "-"])
            #expect(result.status == 0, "\(result.stderr)")
            return hashes(inFrameMD5: result.stdout)
        }

        private func hashes(inFrameMD5 text: String) -> [String] {
            text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last!.trimmingCharacters(in: .whitespaces)) }
        }

        /// The presented frames are the decoded ones, in order; a late one may be skipped.
        private func isInOrderSubset(_ tapped: [String], of decoded: [String]) -> Bool {
            var position = decoded.startIndex
            return tapped.allSatisfy { hash in
                guard let found = decoded[position...].firstIndex(of: hash) else { return false }
                position = found + 1
                return true
            }
        }

        private func framesShown(_ result: ProcessResult) throws -> Int {
            let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return (report?["statistics"] as? [String: Any])?["frames_shown"] as? Int ?? -1
        }

        @Test(.timeLimit(.minutes(1))) func aY4MFileReadByFFmpegHoldsThePresentedFrames() throws {
            let clip = try PlaybackTests.FrameTapTests.clip()
            let directory = try Paths.temporaryDirectory()
            let y4m = directory.appendingPathComponent("tap.y4m").path
            let result = try reel("play", "--headless", "--stats", "--tap", "y4m:\(y4m)", clip, timeout: 60)
            #expect(result.status == 0, "\(result.stderr)")
            let header = try String(decoding: FileHandle(forReadingFrom: URL(fileURLWithPath: y4m)).read(upToCount: 80) ?? Data(), as: UTF8.self)
            #expect(header.hasPrefix("YUV4MPEG2 W320 H240 F25:1 "), "\(header)")
            let tapped = try frameHashes(y4m), decoded = try frameHashes(clip)
            let shown = try framesShown(result)
            #expect(tapped.count == shown && shown >= 73, "ffmpeg read \(tapped.count) frames, \(shown) of 75 were presented")
            #expect(isInOrderSubset(tapped, of: decoded), "the y4m frames are not the presented ones")
            #expect(result.stderr.contains("tap \(y4m): \(shown) frames, 0 dropped"), "\(result.stderr)")
        }

        @Test(.timeLimit(.minutes(1))) func aFIFOFeedsFFmpegWhilePlayingInRealTime() throws {
            let clip = try PlaybackTests.FrameTapTests.clip()
            let directory = try Paths.temporaryDirectory()
            let fifo = directory.appendingPathComponent("tap.fifo").path
            let checksums = directory.appendingPathComponent("tap.framemd5").path
            #expect(mkfifo(fifo, 0o644) == 0)
            let reader = try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-y", "-f", "yuv4mpegpipe", "-i", fifo, "-f", "framemd5", checksums])
            defer { reader.stop() }
            let result = try reel("play", "--headless", "--stats", "--tap", "y4m:\(fifo)", clip, timeout: 60)
            #expect(result.status == 0, "\(result.stderr)")
            for _ in 0..<100 where reader.isRunning { Thread.sleep(forTimeInterval: 0.05) }
            #expect(reader.exitStatus == 0, "ffmpeg did not finish reading the FIFO")

            let shown = try framesShown(result)
            let tapped = hashes(inFrameMD5: try String(contentsOfFile: checksums, encoding: .utf8))
            #expect(tapped.count == shown, "ffmpeg read \(tapped.count) frames, \(shown) were presented")
            #expect(isInOrderSubset(tapped, of: try frameHashes(clip)), "the FIFO's frames are not the presented ones in order")
            #expect(result.stderr.contains("tap \(fifo): \(shown) frames, 0 dropped"), "\(result.stderr)")
        }

        @Test(.timeLimit(.minutes(1))) func pngTapsWriteEveryNthFrame() throws {
            let clip = try PlaybackTests.FrameTapTests.clip()
            let directory = try Paths.temporaryDirectory().appendingPathComponent("pngs").path
            let result = try reel("play", "--headless", "--untimed", "--tap", "png:\(directory)", "--tap-every", "25", clip, timeout: 60)
            #expect(result.status == 0, "\(result.stderr)")
            let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            #expect(files == ["frame-000000.png", "frame-000025.png", "frame-000050.png"])
            // Frame 25 is ffmpeg's 26th decoded frame, turned into RGB as the PNG writer does.
            let png = (directory as NSString).appendingPathComponent("frame-000025.png")
            let compare = try Processes.run("ffmpeg", ["-v", "info", "-nostdin", "-i", png, "-i", clip, "-lavfi",
                                                       "[1:v]select=eq(n\\,25),scale=flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp,format=rgb24[b];[0:v][b]psnr",
                                                       "-frames:v", "1", "-f", "null", "-"])
            let psnr = compare.stderr.range(of: "average:").map { compare.stderr[$0.upperBound...].prefix { !$0.isWhitespace } }
            #expect(psnr.map { $0 == "inf" || (Double($0) ?? 0) >= 35 } == true, "PNG against ffmpeg's frame 25: PSNR \(psnr ?? "none")")
        }

        @Test func badTapsAreClearErrors() throws {
            let clip = try PlaybackTests.FrameTapTests.clip()
            let unknown = try reel("play", "--headless", "--tap", "mkv:out.mkv", clip)
            #expect(unknown.status != 0)
            #expect(unknown.stderr.contains("--tap takes y4m:PATH or png:DIR"), "\(unknown.stderr)")
            let unwritable = try reel("play", "--headless", "--untimed", "--tap", "y4m:/nonexistent/dir/out.y4m", clip, timeout: 30)
            #expect(unwritable.status == 1)
            #expect(unwritable.stderr.contains("reel: tap: cannot write /nonexistent/dir/out.y4m"), "\(unwritable.stderr)")
        }
    }
}
