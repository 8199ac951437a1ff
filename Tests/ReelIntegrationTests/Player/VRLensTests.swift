import Foundation
import Testing

extension LightPlaybackTests.PanoramaWindowTests {
    /// --vr-k1, --vr-k2 and --vr-chroma: each eye of the tapped VR picture against a
    /// reference made without Reel's code: ffmpeg's v360 view of the eye's whole field at
    /// four times the size, each pixel and colour of the eye read where the Brown–Conrady
    /// formula, written out here, sends it.
    @Test(.timeLimit(.minutes(2))) func theLensOptionsWarpEachEyeAsTheFormulaSays() throws {
        // Blurred, so that sampling the view at a point (the reference) and interpolating
        // between its pixels (the player) agree wherever the warp puts the point.
        let clip = try Fixtures.made("equirect-blurred.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=1024x512:rate=25:duration=0.2,gblur=sigma=3",
            "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p"])
        let lens = VRLensReference.Lens(k1: 0.25, k2: 0.1, scales: [0.98, 1, 1.02])
        let directory = try Paths.temporaryDirectory()
        let result = try reel("play", "--headless", "--untimed", "--projection", "equirect", "--vr", "--view-size", "640x320",
                              "--vr-k1", "0.25", "--vr-k2", "0.1", "--vr-chroma", "0.98:1:1.02",
                              "--tap", "png:\(directory.path)", "--tap-every", "100", clip, timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let ours = try VRLensReference.rgb(of: directory.appendingPathComponent("frame-000000.png").path)
        let expected = try VRLensReference.picture(of: clip, lens: lens, eyeWidth: 320, height: 320)
        // What the player would show were the options ignored, all of them or one at a time:
        // Cardboard v1's lens is the default of each. Reel's picture must be the formula's
        // with all three, and nearer it than to any picture with one of them left out (the
        // chroma scales, the subtlest, 2.4 dB).
        let cardboard = VRLensReference.Lens(k1: 0.441, k2: 0.156, scales: [0.995, 1, 1.005])
        let ignored = try VRLensReference.picture(of: clip, lens: cardboard, eyeWidth: 320, height: 320)
        let quality = SubtitleTests.psnr(ours, expected), apart = SubtitleTests.psnr(expected, ignored)
        print("VR lens k1 0.25 k2 0.1 chroma 0.98:1:1.02: \(quality) dB against the formula's warp of v360 (Cardboard v1's lens: \(apart) dB)")
        #expect(quality >= 38, "\(quality) dB against the formula's warp")
        #expect(apart < 25, "the options make no difference the test can see: \(apart) dB")
        let leftOut: [(String, VRLensReference.Lens)] = [
            ("--vr-k1", .init(k1: cardboard.k1, k2: lens.k2, scales: lens.scales)),
            ("--vr-k2", .init(k1: lens.k1, k2: cardboard.k2, scales: lens.scales)),
            ("--vr-chroma", .init(k1: lens.k1, k2: lens.k2, scales: cardboard.scales)),
        ]
        for (option, partial) in leftOut {
            let without = SubtitleTests.psnr(ours, try VRLensReference.picture(of: clip, lens: partial, eyeWidth: 320, height: 320))
            print("VR lens without \(option): \(without) dB from Reel's picture")
            #expect(without < quality - 1, "Reel's picture is \(without) dB from the warp without \(option), \(quality) dB from the one with it")
        }
    }
}

/// A VR picture (two identical eyes, each lens in its eye's middle) made from the lens
/// formula and ffmpeg's v360, for a mono equirectangular clip looked at straight ahead
/// with a 90° field.
enum VRLensReference {
    struct Lens {
        var k1: Double
        var k2: Double
        /// Red, green and blue.
        var scales: [Double]
    }

    /// How many times finer the v360 view is than the eye: the nearest of its pixels is
    /// within an eighth of an eye pixel of where the formula points.
    static let supersampling = 4

    static func picture(of clip: String, lens: Lens, eyeWidth: Int, height: Int) throws -> [UInt8] {
        // r' = r (1 + k1 r² + k2 r⁴), r in half eye widths from the lens's centre. The eye
        // picture must reach as far as the eye's corner sends its widest colour.
        func distortion(_ r2: Double) -> Double { 1 + lens.k1 * r2 + lens.k2 * r2 * r2 }
        let halfWidth = Double(eyeWidth) / 2
        let corner2 = 1 + Double(height * height) / Double(eyeWidth * eyeWidth)
        let reach = corner2.squareRoot() * distortion(corner2) * lens.scales.max()!
        // A 90° field is one half width either side: the eye's picture spans `reach` of them.
        let horizontalFOV = 2 * atan(reach) * 180 / .pi
        let verticalFOV = 2 * atan(reach * Double(height) / Double(eyeWidth)) * 180 / .pi
        let (fineWidth, fineHeight) = (eyeWidth * supersampling, height * supersampling)
        let fine = try rgb(of: clip, filter: "v360=input=e:output=flat:h_fov=\(horizontalFOV):v_fov=\(verticalFOV):w=\(fineWidth):h=\(fineHeight):interp=linear,"
                                        + "scale=flags=neighbor+bitexact+accurate_rnd+full_chroma_int,format=rgb24")
        var eye = [UInt8](repeating: 0, count: eyeWidth * height * 3)
        for y in 0..<height {
            for x in 0..<eyeWidth {
                let px = (Double(x) + 0.5 - halfWidth) / halfWidth, py = (Double(y) + 0.5 - Double(height) / 2) / halfWidth
                let factor = distortion(px * px + py * py)
                for channel in 0..<3 {
                    // In eye-picture pixels, pixel centres on whole numbers.
                    let sx = px * factor * lens.scales[channel] / reach * halfWidth + halfWidth - 0.5
                    let sy = py * factor * lens.scales[channel] / reach * halfWidth + Double(height) / 2 - 0.5
                    guard sx >= 0, sy >= 0, sx <= Double(eyeWidth - 1), sy <= Double(height - 1) else { continue }
                    let fx = min(Int(((sx + 0.5) * Double(supersampling) - 0.5).rounded()), fineWidth - 1)
                    let fy = min(Int(((sy + 0.5) * Double(supersampling) - 0.5).rounded()), fineHeight - 1)
                    eye[(y * eyeWidth + x) * 3 + channel] = fine[(fy * fineWidth + fx) * 3 + channel]
                }
            }
        }
        var picture: [UInt8] = []
        picture.reserveCapacity(eye.count * 2)
        for y in 0..<height {
            let row = eye[(y * eyeWidth * 3)..<((y + 1) * eyeWidth * 3)]
            picture.append(contentsOf: row)
            picture.append(contentsOf: row)
        }
        return picture
    }

    /// The first picture of `path` (through `filter`), as packed RGB.
    static func rgb(of path: String, filter: String = "format=rgb24") throws -> [UInt8] {
        let output = try Paths.temporaryDirectory().appendingPathComponent("picture.rgb").path
        let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", path, "-frames:v", "1", "-vf", filter,
                                                "-f", "rawvideo", "-pix_fmt", "rgb24", output])
        guard made.status == 0 else { throw TestSetupError("ffmpeg: \(made.stderr)") }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }
}
