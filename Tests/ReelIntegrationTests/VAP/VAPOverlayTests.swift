import Foundation
import Reel
import Testing

/// A VAP gift drawn over a playing video (`reel play --overlay`), judged against ffmpeg:
/// the gift rendered by ffmpeg's own chain (the colour region, the alpha region's luma
/// scaled and `alphamerge`d: VAP colour is premultiplied), scaled bilinearly to where it is
/// placed and laid over the video by its `overlay` filter (`alpha=premultiplied`), with
/// libswscale's point conversions, which Reel's equal.
@Suite struct VAPOverlayTests {
    /// Reads raw I420 frames of `width` × `height` from `path` (any file ffmpeg reads).
    static func rawFrames(_ path: String, width: Int, height: Int, in directory: URL, name: String) throws -> [[UInt8]] {
        let raw = directory.appendingPathComponent("\(name).yuv").path
        let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", raw])
        guard made.status == 0 else { throw TestSetupError("ffmpeg: \(made.stderr)") }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let frameBytes = width * height * 3 / 2
        return stride(from: 0, to: bytes.count - frameBytes + 1, by: frameBytes).map { Array(bytes[$0..<($0 + frameBytes)]) }
    }

    /// 4 s of 640×360 at 25 a second, and Tencent's demo gift.
    static func clipAndGift() throws -> (clip: String, gift: String) {
        (try Fixtures.made("overlay-base-640x360-25-4s.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=4", "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p"]),
         try Paths.sharedFixtures("vap").appendingPathComponent("demo.mp4").path)
    }

    /// ffmpeg's chain for a gift of `layout` read from input `input`: its colour region and
    /// its alpha region's luma `alphamerge`d, scaled bilinearly to `width` × `height`,
    /// labelled `label`.
    static func giftChain(input: Int, layout: VAPLayout, width: Int, height: Int, label: String) -> String {
        let c = layout.rgbFrame, a = layout.alphaFrame
        return "[\(input):v]split[c\(label)][a\(label)];[c\(label)]crop=\(c.width):\(c.height):\(c.x):\(c.y):exact=1,format=rgba[rgb\(label)];"
            + "[a\(label)]format=gray,crop=\(a.width):\(a.height):\(a.x):\(a.y),scale=\(c.width):\(c.height):flags=bilinear[alpha\(label)];"
            + "[rgb\(label)][alpha\(label)]alphamerge,scale=\(width):\(height):flags=bilinear,format=rgba[\(label)];"
    }

    /// Where a gift of `size` goes when fitted into `region`, its shape kept and centred
    /// (worked out here, not by Reel's placement).
    static func fitted(_ size: (width: Int, height: Int), into region: PixelRect) -> PixelRect {
        let fit = min(Double(region.width) / Double(size.width), Double(region.height) / Double(size.height))
        let width = Int((Double(size.width) * fit).rounded()), height = Int((Double(size.height) * fit).rounded())
        return PixelRect(x: region.x + (region.width - width) / 2, y: region.y + (region.height - height) / 2, width: width, height: height)
    }

    /// Two gifts overlapping, the one of higher z over the other: every frame is ffmpeg's
    /// overlay of the lower one then the higher one (PSNR ≥ 40 dB), and each frame where
    /// the other order makes another picture is nearer this order's.
    @Test(.timeLimit(.minutes(3))) func twoGiftsOverlapInZOrder() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (width, height) = (640, 360)
        let (clip, gift) = try Self.clipAndGift()
        let layout = try VAPRenderer(path: gift).layout
        let size = (layout.outputWidth, layout.outputHeight)
        // Over the left and the right of the picture, overlapping in the middle; the right
        // one drawn over the left one (z 2 over z 1), starting later so that they differ.
        let left = Self.fitted(size, into: PixelRect(x: 0, y: 0, width: 400, height: 360))
        let right = Self.fitted(size, into: PixelRect(x: 240, y: 0, width: 400, height: 360))
        let tap = directory.appendingPathComponent("tap.y4m").path
        let played = try reel("play", "--headless", "--untimed", "--no-audio", "--tap", "y4m:\(tap)",
                              "--overlay", "\(gift)@0.2,pos=240:0:400:360,z=2", "--overlay", "\(gift)@0.6,pos=0:0:400:360,z=1", clip, timeout: 120)
        #expect(played.status == 0, "\(played.stderr)")

        func reference(lowerFirst: Bool, name: String) throws -> [[UInt8]] {
            let (first, second) = lowerFirst ? (("L", left), ("R", right)) : (("R", right), ("L", left))
            let graph = "sws_flags=neighbor+accurate_rnd+full_chroma_int+bitexact;"
                + Self.giftChain(input: 1, layout: layout, width: right.width, height: right.height, label: "R")
                + Self.giftChain(input: 2, layout: layout, width: left.width, height: left.height, label: "L")
                + "[0:v]format=bgra[base];"
                + "[base][\(first.0)]overlay=x=\(first.1.x):y=\(first.1.y):format=rgb:alpha=premultiplied:eof_action=pass[once];"
                + "[once][\(second.0)]overlay=x=\(second.1.x):y=\(second.1.y):format=rgb:alpha=premultiplied:eof_action=pass,format=yuv420p"
            let output = directory.appendingPathComponent("\(name).y4m").path
            let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", clip, "-itsoffset", "0.2", "-i", gift, "-itsoffset", "0.6", "-i", gift,
                                                    "-filter_complex", graph, "-f", "yuv4mpegpipe", output], timeout: 120)
            try #require(made.status == 0, "\(made.stderr)")
            return try Self.rawFrames(output, width: width, height: height, in: directory, name: name)
        }
        let ours = try Self.rawFrames(tap, width: width, height: height, in: directory, name: "ours")
        let inOrder = try reference(lowerFirst: true, name: "in-order")
        let reversed = try reference(lowerFirst: false, name: "reversed")
        #expect(ours.count == 100 && inOrder.count == 100, "\(ours.count) frames tapped, \(inOrder.count) from ffmpeg")
        var worst = Double.infinity, orderMatters = 0, nearerReversed: [Int] = []
        for (index, mine) in ours.enumerated() where index < inOrder.count && index < reversed.count {
            let quality = SubtitleTests.psnr(mine, inOrder[index])
            worst = min(worst, quality)
            #expect(quality >= 40, "frame \(index): PSNR \(quality) dB against ffmpeg's overlay in z-order")
            // Where the gifts' opaque parts overlap, the other order is another picture.
            guard SubtitleTests.psnr(inOrder[index], reversed[index]) < 40 else { continue }
            orderMatters += 1
            if SubtitleTests.psnr(mine, reversed[index]) >= quality { nearerReversed.append(index) }
        }
        #expect(orderMatters >= 20 && nearerReversed.isEmpty, "\(orderMatters) frames where the order shows; nearer the reverse order: \(nearerReversed)")
        print(String(format: "two gifts in z-order: worst PSNR %.1f dB against ffmpeg's overlays in that order; %d frames where the order shows, none nearer the reverse", worst, orderMatters))
    }

    @Test(.timeLimit(.minutes(3))) func aGiftOverAVideoIsFFmpegsOverlayOfTheGift() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (width, height) = (640, 360)
        let (clip, gift) = try Self.clipAndGift()
        let layout = try VAPRenderer(path: gift).layout
        // Fitted in the middle of the picture, its shape kept.
        let place = Self.fitted((layout.outputWidth, layout.outputHeight), into: PixelRect(x: 0, y: 0, width: width, height: height))

        let tap = directory.appendingPathComponent("tap.y4m").path
        let played = try reel("play", "--headless", "--untimed", "--no-audio", "--overlay", "\(gift)@0.5", "--tap", "y4m:\(tap)", clip, timeout: 120)
        #expect(played.status == 0, "\(played.stderr)")

        let graph = "sws_flags=neighbor+accurate_rnd+full_chroma_int+bitexact;"
            + Self.giftChain(input: 1, layout: layout, width: place.width, height: place.height, label: "gift")
            + "[0:v]format=bgra[base];[base][gift]overlay=x=\(place.x):y=\(place.y):format=rgb:alpha=premultiplied:eof_action=pass,format=yuv420p"
        let reference = directory.appendingPathComponent("reference.y4m").path
        let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", clip, "-itsoffset", "0.5", "-i", gift,
                                                "-filter_complex", graph, "-f", "yuv4mpegpipe", reference], timeout: 120)
        try #require(made.status == 0, "\(made.stderr)")

        let ours = try Self.rawFrames(tap, width: width, height: height, in: directory, name: "ours")
        let theirs = try Self.rawFrames(reference, width: width, height: height, in: directory, name: "theirs")
        #expect(ours.count == 100 && theirs.count == 100, "\(ours.count) frames tapped, \(theirs.count) from ffmpeg")
        var worst = Double.infinity, giftFrames = 0
        let plain = try Self.rawFrames(clip, width: width, height: height, in: directory, name: "plain")
        for (index, (mine, reference)) in zip(ours, theirs).enumerated() {
            let quality = SubtitleTests.psnr(mine, reference)
            worst = min(worst, quality)
            #expect(quality >= 40, "frame \(index): PSNR \(quality) dB against ffmpeg's overlay")
            if index < plain.count && mine != plain[index] { giftFrames += 1 }
        }
        // The gift's 80 frames at 25 a second, from 0.5 s: frames 13 to 92 of the video carry it.
        #expect(giftFrames >= 75 && giftFrames <= 80, "\(giftFrames) frames differ from the plain video")
        print(String(format: "gift over video: %d frames with the gift, worst PSNR %.1f dB against ffmpeg's overlay", giftFrames, worst))
    }

    /// Over a 360° view the gift goes on the view, where its placement puts it in the view's
    /// pixels, not onto the sphere: our view with the gift (from 1 s, so its frame 12 at
    /// 1.5 s) against ffmpeg's overlay of that gift frame onto our view without it.
    @Test(.timeLimit(.minutes(2))) func overA360ViewTheGiftIsDrawnOnTheView() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sphere = try PanoRenderTests.clip()
        let gift = try Paths.sharedFixtures("vap").appendingPathComponent("demo.mp4").path
        let layout = try VAPRenderer(path: gift).layout
        let place = Self.fitted((layout.outputWidth, layout.outputHeight), into: PixelRect(x: 0, y: 0, width: 320, height: 180))
        let with = directory.appendingPathComponent("view-with.png").path, without = directory.appendingPathComponent("view-without.png").path
        let view = ["play", "--headless", "--untimed", "--projection", "equirect", "--yaw", "30", "--view-size", "640x360", "--duration", "1.8"]
        let drawn = try Processes.run(Paths.reel, view + ["--overlay", "\(gift)@1,pos=0:0:320:180", "--snapshot", "1.5:\(with)", sphere])
        try #require(drawn.status == 0, "\(drawn.stderr)")
        let plain = try Processes.run(Paths.reel, view + ["--snapshot", "1.5:\(without)", sphere])
        try #require(plain.status == 0, "\(plain.stderr)")
        // The gift's frame 12 as decoded (4:2:0 still), then ffmpeg's chain over the view.
        let frame = directory.appendingPathComponent("gift-12.nut").path
        let picked = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", gift, "-vf", "select=eq(n\\,12)", "-frames:v", "1", "-c:v", "rawvideo", frame])
        try #require(picked.status == 0, "\(picked.stderr)")
        let graph = "sws_flags=neighbor+accurate_rnd+full_chroma_int+bitexact;"
            + Self.giftChain(input: 1, layout: layout, width: place.width, height: place.height, label: "gift")
            + "[0:v]format=bgra[base];[base][gift]overlay=x=\(place.x):y=\(place.y):format=rgb:alpha=premultiplied,format=rgb24"
        let reference = directory.appendingPathComponent("ffmpeg-with.png").path
        let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", without, "-i", frame, "-filter_complex", graph, "-frames:v", "1", reference])
        try #require(made.status == 0, "\(made.stderr)")
        let full = (x: 0, y: 0, width: 640, height: 360)
        let quality = try VirtualDisplay.psnr(with, crop: full, against: reference)
        #expect(quality >= 40, "the view with the gift: \(quality) dB against ffmpeg's overlay over the view")
        #expect(try VirtualDisplay.psnr(with, crop: full, against: without) < 40, "no gift on the view")
        print("a gift over a 360° view: \(String(format: "%.1f", quality)) dB against ffmpeg's overlay over the same view")
    }
}
