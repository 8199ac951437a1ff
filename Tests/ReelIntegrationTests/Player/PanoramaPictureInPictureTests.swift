import Foundation
import Testing

extension LightPlaybackTests.PanoramaWindowTests {
    /// Picture-in-picture of a 360° video shows the view the main window shows (v360's),
    /// not the equirectangular frame.
    @Test(.timeLimit(.minutes(2))) func pictureInPictureShowsTheView() throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        let clip = try Self.equirectangular()
        let directory = try Paths.temporaryDirectory()
        let view = directory.appendingPathComponent("v360.png").path, frame = directory.appendingPathComponent("frame.png").path
        try Self.reference(clip, yaw: 30, width: 768, height: 432, to: view)
        let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-ss", "1", "-i", clip, "-frames:v", "1", "-vf", "format=rgb24", frame])
        try #require(made.status == 0, "\(made.stderr)")
        let (player, small) = try display.play(["--pause", "--pip", "--start", "1", "--projection", "equirect", "--yaw", "30", clip], title: "picture-in-picture")
        defer { player.stop() }
        let quality = display.waitFor({ () -> (view: Double, frame: Double) in
            let shot = directory.appendingPathComponent("pip.png").path
            try? display.screenshot(to: shot)
            let crop = (small.x, small.y, small.width, small.height)
            return ((try? VirtualDisplay.psnr(shot, crop: crop, against: view)) ?? 0, (try? VirtualDisplay.psnr(shot, crop: crop, against: frame)) ?? 0)
        }, until: { $0.view >= 25 && $0.view > $0.frame + 3 })
        // SDL scales the small window linearly, ffmpeg the references bicubically: the view
        // is told from the frame by which one it is nearer.
        #expect(quality.view >= 25 && quality.view > quality.frame + 3,
                "picture-in-picture (\(small.width)×\(small.height)): \(quality.view) dB against v360's view, \(quality.frame) dB against the frame")
        print("picture-in-picture of a 360° view: \(String(format: "%.1f", quality.view)) dB against v360's view, \(String(format: "%.1f", quality.frame)) dB against the frame")
    }
}
