import Testing
@testable import ReelCore

/// Fusion on synthetic pictures: a source appears only where its mask is red, only in
/// the frames that list it, in z order; 90° masks are read turned.
@Suite struct VAPFusionTests {
    /// A 64×32 I420 video: colour region [0, 0, 32, 32], alpha [32, 0, 16, 16], and a
    /// 16×8 mask region at [40, 16] whose left half is white (mask on), right half black.
    static func video() throws -> PixelBuffer {
        let picture = try PixelBuffer(format: .i420, width: 64, height: 32)
        for row in 0..<32 { for column in 0..<64 { picture.planes[0].row(row)[column] = 16 } }
        for plane in 1...2 { for row in 0..<16 { for column in 0..<32 { picture.planes[plane].row(row)[column] = 128 } } }
        for row in 16..<24 { for column in 40..<48 { picture.planes[0].row(row)[column] = 235 } }
        return picture
    }

    static func config(rotation: Int = 0, mask: PixelRect = PixelRect(x: 40, y: 16, width: 16, height: 8)) -> VAPConfig {
        let info = VAPConfig.Info(frameCount: 4, width: 32, height: 32, videoWidth: 64, videoHeight: 32, framesPerSecond: 20, isVAPX: true,
                                  alphaFrame: PixelRect(x: 32, y: 0, width: 16, height: 16), rgbFrame: PixelRect(x: 0, y: 0, width: 32, height: 32))
        let object = VAPConfig.Object(sourceID: "1", z: 0, frame: PixelRect(x: 8, y: 8, width: rotation == 90 ? 8 : 16, height: rotation == 90 ? 16 : 8),
                                      maskFrame: mask, maskRotation: rotation)
        return VAPConfig(info: info, sources: [.init(id: "1", kind: .image, tag: "[img]", width: 4, height: 4)],
                         frames: [.init(index: 2, objects: [object])])
    }

    static func solidRed() throws -> PixelBuffer {
        let picture = try PixelBuffer(format: .rgba, width: 4, height: 4)
        for row in 0..<4 { for column in 0..<4 { (picture.planes[0].row(row) + 4 * column).update(from: [255, 0, 0, 255], count: 4) } }
        return picture
    }

    @Test func sourcesShowOnlyInsideTheMaskAndInTheirFrames() throws {
        let video = try Self.video()
        var fusion = try VAPFusion(config: Self.config(), sources: ["1": try Self.solidRed()])
        for frame in 0..<4 {
            let output = try PixelBuffer(format: .rgba, width: 32, height: 32)
            try fusion.apply(frame: frame, picture: video, onto: output)
            for row in 0..<32 {
                for column in 0..<32 {
                    let pixel = output.planes[0].row(row) + 4 * column
                    // The object covers [8, 8, 16, 8]; its mask is on in its left half.
                    let shown = frame == 2 && (8..<16).contains(row) && (8..<16).contains(column)
                    #expect(pixel[0] == (shown ? 255 : 0) && pixel[3] == (shown ? 255 : 0), "frame \(frame) (\(column), \(row))")
                }
            }
        }
    }

    @Test func aQuarterTurnedMaskIsReadTurned() throws {
        // Object 8 wide, 16 tall; its mask is stored 16 wide, 8 tall, turned clockwise (a
        // clockwise turn takes the top edge to the right): the mask's left half (on) is
        // the object's bottom half.
        let video = try Self.video()
        var fusion = try VAPFusion(config: Self.config(rotation: 90), sources: ["1": try Self.solidRed()])
        let output = try PixelBuffer(format: .rgba, width: 32, height: 32)
        try fusion.apply(frame: 2, picture: video, onto: output)
        for row in 8..<24 {
            for column in 8..<16 {
                let shown = row >= 16
                #expect(output.planes[0].row(row)[4 * column + 3] == (shown ? 255 : 0), "(\(column), \(row))")
            }
        }
    }

    @Test func aMissingSourceIsNamed() {
        #expect(throws: VAPError.missingSource(tag: "[img]")) { try VAPFusion(config: Self.config(), sources: [:]) }
    }

    @Test func centerFullCropsWhileFitXYStretches() throws {
        // A 4×2 source, left half red, right half blue, into a 2×2 frame.
        let source = try PixelBuffer(format: .rgba, width: 4, height: 2)
        for row in 0..<2 {
            for column in 0..<4 { (source.planes[0].row(row) + 4 * column).update(from: column < 2 ? [255, 0, 0, 255] : [0, 0, 255, 255], count: 4) }
        }
        let stretched = try RGBAResampler.fit(source, width: 2, height: 2, cropToFill: false)
        #expect(stretched.planes[0].row(0)[0] == 255 && stretched.planes[0].row(0)[6] == 255)
        let cropped = try RGBAResampler.fit(source, width: 2, height: 2, cropToFill: true)
        // The middle 2×2: the boundary between red and blue.
        #expect(cropped.planes[0].row(0)[0] == 255 && cropped.planes[0].row(0)[2] == 0)
        #expect(cropped.planes[0].row(0)[4] == 0 && cropped.planes[0].row(0)[6] == 255)
    }
}
