import Foundation
import Reel
import Testing

/// Tencent's fusion animation rendered with a text and an image: fused pixels appear only
/// inside the objects' frames, only where their masks are on, and only in the frames the
/// configuration lists.
@Suite struct VAPFusionAgreementTests {
    @Test func vapxFusesOnlyInsideMasksAndListedFrames() throws {
        let path = try Paths.sharedFixtures("vap").appendingPathComponent("vapx.mp4").path
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = directory.appendingPathComponent("magenta.png").path
        let made = try Processes.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=0xFF00FF:s=66x66", "-frames:v", "1", image])
        #expect(made.status == 0)
        let content = VAPFusionContent(texts: ["[sTxt1]": "Reel 360"], imageFiles: ["[sImg1]": image])
        let fused = try VAPRenderer(path: path, content: content)
        let plain = try VAPRenderer(path: path)
        let config = try #require(fused.decoder.file.config)
        var framesWithText = 0, framesWithImage = 0
        while let (index, picture) = try fused.nextFrame(), let (plainIndex, plainPicture) = try plain.nextFrame() {
            #expect(index == plainIndex)
            let objects = config.objects(inFrame: index)
            var changedInside: [String: Int] = [:], changedOutside = 0
            for row in 0..<picture.height {
                let a = picture.planes[0].row(row), b = plainPicture.planes[0].row(row)
                for column in 0..<picture.width where memcmp(a + 4 * column, b + 4 * column, 4) != 0 {
                    if let object = objects.first(where: { $0.frame.contains(x: column, y: row) }) {
                        changedInside[object.sourceID, default: 0] += 1
                    } else {
                        changedOutside += 1
                    }
                }
            }
            #expect(changedOutside == 0, "frame \(index): \(changedOutside) pixels changed outside the objects")
            if objects.isEmpty { #expect(changedInside.isEmpty, "frame \(index) lists no object but changed") }
            if (changedInside["1"] ?? 0) > 50 { framesWithText += 1 }
            if (changedInside["2"] ?? 0) > 50 { framesWithImage += 1 }
        }
        let listed = Set(config.frames.map(\.index)).count
        // Masks fade in and out: most listed frames show both sources clearly.
        #expect(framesWithText >= listed * 3 / 4 && framesWithImage >= listed * 3 / 4,
                "text in \(framesWithText), image in \(framesWithImage) of \(listed) listed frames")
    }

    @Test func maskedPixelsTakeTheImagesColour() throws {
        // In a frame where the image's mask is fully on, the image's centre is magenta.
        let path = try Paths.sharedFixtures("vap").appendingPathComponent("vapx.mp4").path
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = directory.appendingPathComponent("magenta.png").path
        _ = try Processes.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=0xFF00FF:s=66x66", "-frames:v", "1", image])
        let renderer = try VAPRenderer(path: path, content: VAPFusionContent(imageFiles: ["[sImg1]": image]))
        let config = try #require(renderer.decoder.file.config)
        let index = 200
        let object = try #require(config.objects(inFrame: index).first { $0.sourceID == "2" })
        try renderer.seek(toFrame: index)
        let (shown, picture) = try #require(try renderer.nextFrame())
        #expect(shown == index)
        let centre = picture.planes[0].row(object.frame.y + object.frame.height / 2) + 4 * (object.frame.x + object.frame.width / 2)
        #expect(centre[0] > 200 && centre[1] < 60 && centre[2] > 200 && centre[3] > 200,
                "centre of the image object: \(centre[0]) \(centre[1]) \(centre[2]) \(centre[3])")
    }
}

extension PixelRect {
    func contains(x px: Int, y py: Int) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
}
