import Foundation
import Reel
import Testing

extension LightPlaybackTests {
    /// The 360° view in a real window (Xvfb): its picture against ffmpeg's v360, dragging,
    /// and VR mode.
    @Suite(.serialized) struct PanoramaWindowTests {
        static func equirectangular() throws -> String {
            try Fixtures.made("equirect-768x384.mp4", [
                "-f", "lavfi", "-i", "testsrc=size=768x384:rate=25:duration=4",
                "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p"])
        }

        static func checkerboard() throws -> String {
            try Fixtures.made("equirect-checkerboard.mp4", [
                "-f", "lavfi", "-i", "nullsrc=size=1024x512:rate=25:duration=2,geq=lum='if(mod(floor(X/32)+floor(Y/32)\\,2)\\,235\\,16)':cb=128:cr=128",
                "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p"])
        }

        /// ffmpeg's picture of the view: v360 with bilinear maps, then RGB as the window
        /// converts (chroma from its 2×2 block, libswscale's bit-exact path).
        static func reference(_ clip: String, yaw: Float, pitch: Float = 0, width: Int, height: Int, to path: String) throws {
            let verticalFOV = 2 * atan(tan(Double.pi / 4) * Double(height) / Double(width)) * 180 / Double.pi
            let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-ss", "1", "-i", clip, "-frames:v", "1", "-vf",
                                                    "v360=input=e:output=flat:yaw=\(yaw):pitch=\(pitch):h_fov=90:v_fov=\(Float(verticalFOV)):w=\(width):h=\(height):interp=linear,"
                                                    + "scale=flags=neighbor+bitexact+accurate_rnd+full_chroma_int,format=rgb24", path])
            guard made.status == 0 else { throw TestSetupError(made.stderr) }
        }

        @Test(.timeLimit(.minutes(2))) func theViewMatchesV360AndDraggingTurnsIt() throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let clip = try Self.equirectangular()
            let directory = try Paths.temporaryDirectory()
            let player = try BackgroundProcess(Paths.reel, ["play", "--pause", "--start", "1", "--projection", "equirect", clip],
                                               environment: ["DISPLAY": display.name])
            defer { player.stop() }
            let window = try #require(try display.window(titled: "equirect-768x384"), "no window appeared")
            let picture = (x: window.x, y: window.y, width: 768, height: 432)
            #expect(window.width == 768 && window.height == 432 + 28, "window \(window)")
            let before = directory.appendingPathComponent("before.png").path, expectedBefore = directory.appendingPathComponent("v360-0.png").path
            try Self.reference(clip, yaw: 0, width: 768, height: 432, to: expectedBefore)
            let initial = try display.settledPSNR(shot: before, crop: picture, against: expectedBefore, threshold: .infinity)
            print("360° window at yaw 0 against v360: PSNR \(initial) dB")
            #expect(initial >= 40, "PSNR \(initial) dB")

            // Drag the world 96 px to the left: the view turns right by 96 × 90° / 768.
            let environment = ["DISPLAY": display.name]
            _ = try Processes.run("xdotool", ["mousemove", "\(window.x + 500)", "\(window.y + 200)"], environment: environment)
            _ = try Processes.run("xdotool", ["mousedown", "1"], environment: environment)
            for step in 1...4 {
                _ = try Processes.run("xdotool", ["mousemove", "\(window.x + 500 - 24 * step)", "\(window.y + 200)"], environment: environment)
                Thread.sleep(forTimeInterval: 0.05)
            }
            _ = try Processes.run("xdotool", ["mouseup", "1"], environment: environment)
            let after = directory.appendingPathComponent("after.png").path, expectedAfter = directory.appendingPathComponent("v360-turned.png").path
            try Self.reference(clip, yaw: 96 * 90 / 768, width: 768, height: 432, to: expectedAfter)
            let turned = try display.settledPSNR(shot: after, crop: picture, against: expectedAfter, threshold: .infinity)
            let notTurned = try VirtualDisplay.psnr(after, crop: picture, against: expectedBefore)
            print("after dragging 96 px: PSNR \(turned) dB against v360 at yaw 11.25°, \(notTurned) dB against yaw 0")
            #expect(turned >= 40, "PSNR \(turned) dB against the expected view")
            #expect(notTurned < 30, "the view did not turn")

            // r resets the view; d turns right 5°, w looks up 5°, + narrows the view 5°.
            func check(_ keys: [String], yaw: Float, pitch: Float, fov: Float, _ name: String) throws {
                for key in keys { try display.press(key, inWindowTitled: "equirect-768x384") }
                let shot = directory.appendingPathComponent("\(name).png").path, expected = directory.appendingPathComponent("v360-\(name).png").path
                let verticalFOV = 2 * atan(tan(Double(fov) * Double.pi / 360) * 432 / 768) * 180 / Double.pi
                let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-ss", "1", "-i", clip, "-frames:v", "1", "-vf",
                                                        "v360=input=e:output=flat:yaw=\(yaw):pitch=\(pitch):h_fov=\(fov):v_fov=\(Float(verticalFOV)):w=768:h=432:interp=linear,"
                                                        + "scale=flags=neighbor+bitexact+accurate_rnd+full_chroma_int,format=rgb24", expected])
                try #require(made.status == 0, "\(made.stderr)")
                let quality = try display.settledPSNR(shot: shot, crop: picture, against: expected, threshold: .infinity)
                print("360° window after \(keys): PSNR \(quality) dB against v360 yaw \(yaw) pitch \(pitch) fov \(fov)")
                #expect(quality >= 40, "\(keys): PSNR \(quality) dB")
            }
            try check(["r"], yaw: 0, pitch: 0, fov: 90, "reset")
            try check(["d", "w", "plus"], yaw: 5, pitch: 5, fov: 85, "keys")
        }

        @Test(.timeLimit(.minutes(2))) func vrModeBendsStraightLines() throws {
            let display = try VirtualDisplay()
            defer { display.stop() }
            let clip = try Self.checkerboard()
            let player = try BackgroundProcess(Paths.reel, ["play", "--pause", "--projection", "equirect", "--vr", clip],
                                               environment: ["DISPLAY": display.name])
            defer { player.stop() }
            let window = try #require(try display.window(titled: "equirect-checkerboard"), "no window appeared")
            Thread.sleep(forTimeInterval: 1.5)
            let artifacts = Paths.cache.appendingPathComponent("test-artifacts")
            try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
            let shot = artifacts.appendingPathComponent("vr-checkerboard.png").path
            try display.screenshot(to: shot)
            print("VR screenshot kept at \(shot)")
            // The left eye's rows: where luma crosses the middle, row by row.
            let eyeWidth = window.width / 2, eyeHeight = window.height - 28
            let raw = artifacts.appendingPathComponent("vr-left-eye.gray").path
            let cut = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", shot, "-vf",
                                                   "crop=\(eyeWidth):\(eyeHeight):\(window.x):\(window.y),format=gray", "-f", "rawvideo", raw])
            try #require(cut.status == 0, "\(cut.stderr)")
            let gray = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
            func edges(row: Int) -> [Int] {
                (1..<eyeWidth).filter { x in (gray[row * eyeWidth + x - 1] < 128) != (gray[row * eyeWidth + x] < 128) }
            }
            // Corners stay black (the warp reaches beyond the picture there).
            #expect(gray[2 * eyeWidth + 2] < 20 && gray[(eyeHeight - 3) * eyeWidth + eyeWidth - 3] < 20)
            // A checker edge right of the centre sits further out near the top than in the
            // middle in a flat view; bent inward (barrel), it sits further in.
            let middle = edges(row: eyeHeight / 2).filter { $0 > eyeWidth * 3 / 4 }.first
            let upper = edges(row: eyeHeight / 5).filter { $0 > eyeWidth * 3 / 4 - 20 }.first
            print("VR left eye: outer edge at x=\(middle ?? -1) in the middle row, x=\(upper ?? -1) a fifth down")
            let m = try #require(middle), u = try #require(upper)
            #expect(u < m - 2, "the outer edge is not curved: \(u) vs \(m)")
        }
    }
}

extension LightPlaybackTests.PanoramaWindowTests {
    /// A file whose spherical metadata says equirectangular opens as a 360° view at the
    /// metadata's initial pose, without being told; `--projection flat` overrides it.
    @Test(.timeLimit(.minutes(2))) func sphericalMetadataOpensTheViewAtItsPose() throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        let directory = try Paths.temporaryDirectory()
        let tagged = directory.appendingPathComponent("tagged-equirect.mp4")
        try FileManager.default.copyItem(atPath: try Self.equirectangular(), toPath: tagged.path)
        try MP4Patches.addSphericalV2(tagged, stereoMode: 0, yaw: 45, pitch: 0, roll: 0)

        let player = try BackgroundProcess(Paths.reel, ["play", "--pause", "--start", "1", tagged.path], environment: ["DISPLAY": display.name])
        let window = try #require(try display.window(titled: "tagged-equirect"), "no window appeared")
        #expect(window.width == 768 && window.height == 432 + 28, "a 360° view opens 16:9: \(window)")
        let shot = directory.appendingPathComponent("pose.png").path, expected = directory.appendingPathComponent("v360-45.png").path
        try Self.reference(tagged.path, yaw: 45, width: 768, height: 432, to: expected)
        let quality = try display.settledPSNR(shot: shot, crop: (window.x, window.y, 768, 432), against: expected, threshold: .infinity)
        #expect(quality >= 40, "the initial view is not the metadata's pose: PSNR \(quality) dB")
        player.stop()

        let flat = try BackgroundProcess(Paths.reel, ["play", "--pause", "--projection", "flat", tagged.path], environment: ["DISPLAY": display.name])
        defer { flat.stop() }
        Thread.sleep(forTimeInterval: 0.5)
        let plain = try #require(try display.window(titled: "tagged-equirect"), "no window appeared")
        #expect(plain.width == 768 && plain.height == 384 + 28, "--projection flat shows the picture as it is: \(plain)")
    }
}

extension LightPlaybackTests.PanoramaWindowTests {
    /// A 360° view taps what it shows: the frame tap (and so a y4m tap, or
    /// picture-in-picture) carries the 768×432 view, not the 768×384 equirectangular frame.
    @Test(.timeLimit(.minutes(1))) func theTapCarriesTheView() throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        let y4m = try Paths.temporaryDirectory().appendingPathComponent("view.y4m").path
        let result = try Processes.run(Paths.reel, ["play", "--projection", "equirect", "--duration", "1", "--tap", "y4m:\(y4m)", try Self.equirectangular()],
                                       timeout: 60, environment: ["DISPLAY": display.name])
        #expect(result.status == 0, "\(result.stderr)")
        let header = String(decoding: try FileHandle(forReadingFrom: URL(fileURLWithPath: y4m)).read(upToCount: 40) ?? Data(), as: UTF8.self)
        #expect(header.hasPrefix("YUV4MPEG2 W768 H432 "), "\(header)")
        // Each tapped picture is v360's view of one of the file's first frames.
        let tapped = try Self.lumaFrames(y4m, width: 768, height: 432)
        let views = try Self.lumaFrames(try Self.equirectangular(), filter: "trim=end=1.2,\(PanoRenderTests.v360(yaw: 0, width: 768, height: 432))",
                                        width: 768, height: 432)
        #expect(tapped.count >= 10, "\(tapped.count) views tapped in 1 s")
        // The window draws its first views from quick maps while the exact ones are built.
        let qualities = tapped.map { picture in views.map { SubtitleTests.psnr(picture, $0) }.max() ?? 0 }
        let approximate = qualities.filter { $0 < 40 }.count
        print("the window's 360° tap: \(tapped.count) views against the nearest of v360's: \(qualities.map { String(format: "%.1f", $0) }) dB")
        #expect(qualities.allSatisfy { $0 >= 30 } && approximate <= 5, "views against the nearest of v360's: \(qualities) dB")
    }
}

extension LightPlaybackTests.PanoramaWindowTests {
    /// The luma plane of each frame of `path` (through `filter`).
    static func lumaFrames(_ path: String, filter: String? = nil, width: Int, height: Int) throws -> [[UInt8]] {
        let output = try Paths.temporaryDirectory().appendingPathComponent("luma-\(UUID().uuidString).gray").path
        let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", path] + (filter.map { ["-vf", $0] } ?? [])
                                     + ["-vsync", "passthrough", "-f", "rawvideo", "-pix_fmt", "gray", output])
        guard made.status == 0 else { throw TestSetupError("ffmpeg: \(made.stderr)") }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        let size = width * height
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<$0 + size]) }
    }
}

extension LightPlaybackTests.PanoramaWindowTests {
    /// Headless, a 360° source is shown as a view as well: the tap and snapshots hold the
    /// view at --view-size, in any projection. The tapped frames of an equi-angular cubemap
    /// are v360's view of it, frame for frame; --projection flat hands over the source.
    @Test(.timeLimit(.minutes(2)), arguments: PlaybackEngineKind.allCases) func headlessTapsAndSnapshotsHoldTheView(engine: PlaybackEngineKind) throws {
        let source = try PanoRenderTests.projected("eac", making: "output=eac:w=768:h=512")
        let directory = try Paths.temporaryDirectory()
        let y4m = directory.appendingPathComponent("view.y4m").path, snapshot = directory.appendingPathComponent("view.png").path
        // In real time: an untimed player outruns the y4m writer, and the tap drops frames.
        let result = try reel("play", "--headless", "--engine", engine.rawValue, "--projection", "eac", "--yaw", "-60", "--pitch", "20", "--view-size", "320x180",
                              "--tap", "y4m:\(y4m)", "--snapshot", "0.5:\(snapshot)", source, timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let view = PanoramaView(yaw: -60, pitch: 20, horizontalFOV: 90).squarePixels(width: 320, height: 180)
        let ours = try PanoRenderTests.hashes(y4m)
        let theirs = try PanoRenderTests.hashes(source, filter: "v360=input=eac:output=flat:yaw=-60:pitch=20:h_fov=90:v_fov=\(view.verticalFOV):w=320:h=180:interp=linear")
        #expect(ours.count == 25 && ours == theirs, "\(zip(ours, theirs).filter { $0 != $1 }.count) of \(ours.count) tapped views differ from v360's")
        let size = try Processes.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", snapshot])
        #expect(size.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "320,180", "snapshot \(size.stdout)")

        let flat = directory.appendingPathComponent("flat.y4m").path
        let plain = try reel("play", "--headless", "--engine", engine.rawValue, "--projection", "flat", "--tap", "y4m:\(flat)", source, timeout: 60)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try PanoRenderTests.hashes(flat) == (try PanoRenderTests.hashes(source)), "--projection flat taps the decoded pictures")
    }
}

extension LightPlaybackTests.PanoramaWindowTests {
    /// VR lens settings from the command line: a white square straight ahead is seen at each
    /// lens's centre, which --vr-ipd over --vr-screen-width moves (Cardboard v2's lens).
    @Test(.timeLimit(.minutes(2))) func theLensesSitWhereTheViewerSays() throws {
        let clip = try Fixtures.made("equirect-marker.mp4", [
            "-f", "lavfi", "-i", "color=black:size=1024x512:rate=25:duration=0.2,drawbox=x=500:y=244:w=24:h=24:color=white:t=fill",
            "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p"])
        /// The bright pixels' mean column in each half of the tapped VR picture.
        func markers(_ options: [String]) throws -> (left: Double, right: Double) {
            let directory = try Paths.temporaryDirectory()
            let result = try Processes.run(Paths.reel, ["play", "--headless", "--untimed", "--projection", "equirect", "--vr", "--view-size", "640x320",
                                                        "--tap", "png:\(directory.path)", "--tap-every", "100"] + options + [clip], timeout: 60)
            #expect(result.status == 0, "\(result.stderr)")
            let png = directory.appendingPathComponent("frame-000000.png").path, raw = directory.appendingPathComponent("eyes.gray").path
            let cut = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", png, "-vf", "format=gray", "-f", "rawvideo", raw])
            try #require(cut.status == 0, "\(cut.stderr)")
            let gray = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
            try #require(gray.count == 640 * 320)
            func mean(_ columns: Range<Int>) -> Double {
                var sum = 0.0, count = 0.0
                for y in 0..<320 { for x in columns where gray[y * 640 + x] > 128 { sum += Double(x - columns.lowerBound); count += 1 } }
                return count > 0 ? sum / count : .nan
            }
            return (mean(0..<320), mean(320..<640))
        }
        let centred = try markers(["--vr-preset", "cardboard-v2", "--vr-ipd", "60"])
        let apart = try markers(["--vr-preset", "cardboard-v2", "--vr-ipd", "70", "--vr-screen-width", "120"])
        print("VR lens centres: \(centred) with the lenses at the eyes' middles, \(apart) 70 mm apart on a 120 mm screen")
        #expect(abs(centred.left - 159.5) < 2 && abs(centred.right - 159.5) < 2, "\(centred)")
        // 70/120 of 640 between the centres: each lens 26.7 pixels outward of its eye's middle.
        #expect(abs(apart.left - (159.5 - 26.7)) < 2 && abs(apart.right - (159.5 + 26.7)) < 2, "\(apart)")
    }
}

extension LightPlaybackTests.PanoramaWindowTests {
    /// A cubemap that says so in its Spherical Video V2 metadata (`cbmp`, YouTube's layout,
    /// 4 pixels of padding) opens in the window as a view, unasked, and the view is v360's.
    @Test(.timeLimit(.minutes(2))) func aTaggedCubemapOpensAsAViewThatMatchesV360() throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        let made = try PanoRenderTests.projected("c3x2-cbmp", making: "output=c3x2:w=576:h=384:out_frot=002200:fout_pad=4")
        let clip = try Paths.temporaryDirectory().appendingPathComponent("tagged-cubemap.mp4")
        try FileManager.default.copyItem(atPath: made, toPath: clip.path)
        try MP4Patches.addSphericalV2(clip, stereoMode: 0, yaw: 0, pitch: 0, roll: 0, projection: MP4Patches.cbmp(layout: 0, padding: 4))
        let player = try BackgroundProcess(Paths.reel, ["play", "--pause", "--start", "0.5", clip.path], environment: ["DISPLAY": display.name])
        defer { player.stop() }
        let window = try #require(try display.window(titled: "tagged-cubemap"), "no window appeared")
        let picture = (x: window.x, y: window.y, width: window.width, height: window.height - 28)
        let shot = clip.deletingLastPathComponent().appendingPathComponent("shot.png").path
        let expected = clip.deletingLastPathComponent().appendingPathComponent("v360.png").path
        // ffmpeg's picture of the frame at 0.5 s, converted to RGB as the window does.
        let verticalFOV = 2 * atan(tan(Double.pi / 4) * Double(picture.height) / Double(picture.width)) * 180 / Double.pi
        let made360 = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-ss", "0.5", "-i", clip.path, "-frames:v", "1", "-vf",
                                                   "v360=input=c3x2:in_frot=002200:fin_pad=4:output=flat:yaw=0:pitch=0:h_fov=90:v_fov=\(Float(verticalFOV))"
                                                   + ":w=\(picture.width):h=\(picture.height):interp=linear,"
                                                   + "scale=flags=neighbor+bitexact+accurate_rnd+full_chroma_int,format=rgb24", expected])
        try #require(made360.status == 0, "\(made360.stderr)")
        let psnr = try display.settledPSNR(shot: shot, crop: picture, against: expected, threshold: .infinity)
        print("360° window of a tagged cubemap against v360: PSNR \(psnr) dB (\(picture.width)x\(picture.height))")
        #expect(psnr >= 40, "PSNR \(psnr) dB")
    }
}
