import Foundation
import Reel
import Testing

extension ServerPlaybackTests {
    /// A gift over a live RTMP stream (nginx-rtmp, published by ffmpeg from a file), judged
    /// against ffmpeg: each picture Reel shows is ffmpeg's overlay of the gift (its own chain,
    /// as ``VAPOverlayTests`` builds it) onto the file's picture of the same number, the gift
    /// started on the picture 1 s into what Reel received (the input's time 1 s).
    @Suite struct GiftOverLiveTests {
        static let (width, height) = (640, 360)

        /// 12 s of 640×360 at 25 a second, every picture a keyframe (a player that joins starts
        /// on the first picture it gets, so that its time 0 is that picture), each carrying its
        /// number in ten 16 × 16 cells along its bottom edge (white for a 1, lowest bit first).
        static func numberedClip() throws -> String {
            // Grey cells: black and white with the pattern's colour would be colours RGB cannot
            // hold, which no conversion through BGRA brings back.
            let cells = "if(gte(Y,344)*lt(X,160),if(mod(floor(N/pow(2,floor(X/16))),2),235,16),lum(X,Y))"
            let grey = { (plane: String) in "if(gte(Y,172)*lt(X,80),128,\(plane)(X,Y))" }
            return try Fixtures.made("overlay-live-numbered-grey-640x360-25-12s.flv", [
                "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=12,format=yuv420p,geq=lum='\(cells)':cb='\(grey("cb"))':cr='\(grey("cr"))'",
                "-c:v", "libx264", "-g", "1", "-bf", "0", "-crf", "12", "-pix_fmt", "yuv420p"])
        }

        /// The number a picture of ``numberedClip()`` carries; nil when a cell is neither black nor white.
        static func number(in frame: [UInt8]) -> Int? {
            var value = 0
            for bit in 0..<10 {
                var sum = 0
                for row in 348..<356 {
                    for column in (bit * 16 + 4)..<(bit * 16 + 12) { sum += Int(frame[row * width + column]) }
                }
                switch sum / 64 {
                case 170...: value |= 1 << bit
                case ..<80: break
                default: return nil
                }
            }
            return value
        }

        @Test(.timeLimit(.minutes(3))) func aGiftOverALiveStreamIsFFmpegsOverlayAtTheSameTimes() throws {
            let directory = try Paths.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let clip = try Self.numberedClip()
            let gift = try Paths.sharedFixtures("vap").appendingPathComponent("demo.mp4").path
            let layout = try VAPRenderer(path: gift).layout
            // Above the numbers, fitted as Reel fits it.
            let place = VAPOverlayTests.fitted((layout.outputWidth, layout.outputHeight), into: PixelRect(x: 0, y: 0, width: 400, height: 320))

            let server = try RTMPServer()
            defer { server.stop() }
            let publisher = try BackgroundProcess("/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-re", "-i", clip, "-c", "copy", "-f", "flv", server.url("gift")])
            defer { publisher.stop() }
            try server.waitForPublisher(publisher)
            let tap = directory.appendingPathComponent("tap.y4m").path
            // Untimed: each gift frame is waited for (in real time one not made in time leaves
            // the one before, counted as late), and every picture received is shown.
            let played = try reel("play", "--headless", "--untimed", "--no-audio", "--duration", "5", "--tap", "y4m:\(tap)",
                                  "--overlay", "\(gift)@1,pos=0:0:400:320", server.url("gift"), timeout: 60)
            #expect(played.status == 0, "\(played.stderr)")

            let ours = try VAPOverlayTests.rawFrames(tap, width: Self.width, height: Self.height, in: directory, name: "ours")
            let numbers = ours.map(Self.number)
            try #require(ours.count >= 75 && numbers.allSatisfy { $0 != nil }, "\(ours.count) pictures, numbers \(numbers)")
            let first = numbers[0]!
            // The gift's first frame on the picture 1 s after the first one received.
            let giftStart = Double(first + 25) / 25
            let graph = "sws_flags=neighbor+accurate_rnd+full_chroma_int+bitexact;"
                + VAPOverlayTests.giftChain(input: 1, layout: layout, width: place.width, height: place.height, label: "gift")
                + "[0:v]format=bgra[base];[base][gift]overlay=x=\(place.x):y=\(place.y):format=rgb:alpha=premultiplied:eof_action=pass,format=yuv420p"
            let reference = directory.appendingPathComponent("reference.y4m").path
            let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", clip, "-itsoffset", String(format: "%.2f", giftStart), "-i", gift,
                                                    "-filter_complex", graph, "-frames:v", "\(numbers.compactMap { $0 }.max()! + 1)",
                                                    "-f", "yuv4mpegpipe", reference], timeout: 120)
            try #require(made.status == 0, "\(made.stderr)")
            let theirs = try VAPOverlayTests.rawFrames(reference, width: Self.width, height: Self.height, in: directory, name: "theirs")

            var worst = Double.infinity, withGift = 0
            for (frame, number) in zip(ours, numbers.compactMap { $0 }) where number < theirs.count {
                let quality = SubtitleTests.psnr(frame, theirs[number])
                worst = min(worst, quality)
                #expect(quality >= 40, "picture \(number): PSNR \(quality) dB against ffmpeg's overlay")
                if number >= first + 25 && number < first + 25 + 80 { withGift += 1 }
            }
            let shown = numbers.compactMap { $0 }
            let skipped = zip(shown, shown.dropFirst()).filter { $1 != $0 + 1 }.count
            print(String(format: "gift over live RTMP: %d pictures from number %d, %d with the gift, %d gaps; worst PSNR %.1f dB against ffmpeg's overlay",
                         ours.count, first, withGift, skipped, worst))
            #expect(skipped == 0, "untimed, every picture received is shown")
            #expect(withGift == 80, "\(withGift) pictures carry the gift's 80 frames")
        }
    }
}
