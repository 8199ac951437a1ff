import Testing
@testable import ReelCore

@Suite struct PanoramaMapTests {
    static func map(_ view: PanoramaView, precision: PanoramaMap.Precision = .exact, threads: Int = 1,
                    interpolation: PanoramaInterpolation = .nearest) throws -> PanoramaMap {
        try PanoramaMap(view: view.squarePixels(width: 320, height: 180), sourceWidth: 1024, sourceHeight: 512,
                               width: 320, height: 180, interpolation: interpolation, precision: precision, threads: threads)
    }

    @Test func threadsDoNotChangeTheMap() throws {
        let view = PanoramaView(yaw: 123, pitch: -33, roll: 12, horizontalFOV: 100)
        for interpolation in PanoramaInterpolation.allCases {
            let one = try Self.map(view, interpolation: interpolation), two = try Self.map(view, threads: 2, interpolation: interpolation)
            #expect(one.offsets == two.offsets && one.weights == two.weights)
        }
    }

    /// Straight ahead the centre of the view is the centre of the source, and yaw turns
    /// right: +90° looks at three quarters of the width, and pitch > 0 looks up, toward row 0.
    @Test func orientationFollowsV360sConventions() throws {
        func centre(_ view: PanoramaView) throws -> (column: Int, row: Int) {
            let map = try Self.map(view)
            let offset = Int(map.offsets[90 * 320 + 160])
            return (offset % 1024, offset / 1024)
        }
        let ahead = try centre(PanoramaView())
        #expect(abs(ahead.column - 512) <= 1 && abs(ahead.row - 256) <= 1)
        let right = try centre(PanoramaView(yaw: 90))
        #expect(abs(right.column - 767) <= 1 && abs(right.row - 256) <= 1)
        let up = try centre(PanoramaView(pitch: 45))
        #expect(abs(up.column - 512) <= 1 && abs(up.row - 128) <= 1, "\(up)")   // north is row 0
    }

    /// The interactive map lands within a source pixel of the exact one away from the
    /// poles, and mostly on the same pixel.
    @Test(arguments: [PanoramaView(yaw: 10, pitch: 5, horizontalFOV: 90), PanoramaView(yaw: 179, pitch: -20, roll: 30, horizontalFOV: 110),
                      PanoramaView(yaw: -60, pitch: 40, horizontalFOV: 60)])
    func theInteractiveMapStaysNearTheExactOne(view: PanoramaView) throws {
        let exact = try Self.map(view), fast = try Self.map(view, precision: .interactive)
        var same = 0, worst = 0
        for (a, b) in zip(exact.offsets, fast.offsets) {
            if a == b { same += 1 }
            var columns = abs(Int(a % 1024) - Int(b % 1024))
            columns = min(columns, 1024 - columns)
            worst = max(worst, max(columns, abs(Int(a / 1024) - Int(b / 1024))))
        }
        #expect(Double(same) / Double(exact.offsets.count) > 0.9, "\(same) of \(exact.offsets.count) identical")
        #expect(worst <= 1, "a pixel \(worst) source pixels away")
    }

    @Test func badViewsAndSizesAreErrors() {
        #expect(throws: PanoramaError.self) { try PanoramaMap(view: PanoramaView(horizontalFOV: 0), sourceWidth: 64, sourceHeight: 32, width: 8, height: 8) }
        #expect(throws: PanoramaError.self) { try PanoramaMap(view: PanoramaView(horizontalFOV: 180), sourceWidth: 64, sourceHeight: 32, width: 8, height: 8) }
        #expect(throws: PanoramaError.self) { try PanoramaMap(view: PanoramaView(), sourceWidth: 0, sourceHeight: 32, width: 8, height: 8) }
        #expect(throws: PanoramaError.self) { try PanoramaMap(view: PanoramaView(), sourceWidth: 64, sourceHeight: 32, width: 100_000, height: 8) }
    }
}

@Suite struct LensDistortionTests {
    @Test func knownPointsMapAsTheFormulaSays() {
        let lens = LensDistortion.cardboard
        #expect(lens.k1 == 0.441 && lens.k2 == 0.156)
        for r: Float in [0, 0.25, 0.5, 1, 1.2] {
            let expected = r * (1 + 0.441 * r * r + 0.156 * r * r * r * r)
            #expect(abs(lens.distortedRadius(r) - expected) < 1e-6)
        }
        let point = lens.sourcePoint(SIMD2(0.6, -0.8))   // r = 1
        #expect(abs(point.x - 0.6 * 1.597) < 1e-5 && abs(point.y + 0.8 * 1.597) < 1e-5)
        // Channels spread by their scales.
        #expect(abs(lens.sourcePoint(SIMD2(1, 0), scale: lens.blue).x - 1.597 * 1.005) < 1e-5)
    }

    /// The map reads, for a viewport pixel at r half-widths from the centre, the
    /// undistorted picture at r' / reach half-widths: barrel.
    @Test func theMapSamplesWhereTheFormulaPoints() throws {
        let lens = LensDistortion(k1: 0.441, k2: 0.156)
        let map = try LensDistortionMap(width: 200, height: 200, distortion: lens)
        #expect(abs(map.reach - lens.distortedRadius(Float(2).squareRoot())) < 1e-4)
        for x in [100, 130, 160, 190] {
            let r = (Float(x) + 0.5 - 100) / 100
            let expected = lens.distortedRadius(r) / map.reach * 100 + 100 - 0.5
            let origin = Int(map.origins[(100 * 200 + x) * 3 + 1])   // green
            #expect(abs(Float(origin % 200) - expected.rounded(.down)) <= 1, "column \(x): read \(origin % 200), formula \(expected)")
        }
        // Straight lines bend: a column near the edge reads nearer the edge at the top than in the middle.
        let middle = Int(map.origins[(100 * 200 + 180) * 3 + 1]) % 200, top = Int(map.origins[(10 * 200 + 180) * 3 + 1]) % 200
        #expect(top > middle)
    }
}

extension PanoramaMapTests {
    /// A plane whose stride differs from the map's gives the same picture, for both kernels
    /// and looking across the seam and down at a pole.
    @Test(arguments: PanoramaInterpolation.allCases)
    func anyStrideGivesTheSamePicture(interpolation: PanoramaInterpolation) throws {
        let view = PanoramaView(yaw: 178, pitch: -70, horizontalFOV: 100).squarePixels(width: 64, height: 40)
        let map = try PanoramaMap(view: view, sourceWidth: 256, sourceHeight: 128, width: 64, height: 40, interpolation: interpolation)
        var rng = SystemRandomNumberGenerator()
        let packed = HeapStorage(byteCount: 256 * 128), padded = HeapStorage(byteCount: 300 * 128)
        for row in 0..<128 {
            for column in 0..<256 {
                let value = UInt8.random(in: 0...255, using: &rng)
                packed.bytes[row * 256 + column] = value
                padded.bytes[row * 300 + column] = value
            }
        }
        let outputs = [HeapStorage(byteCount: 64 * 40), HeapStorage(byteCount: 64 * 40)]
        func plane(_ storage: HeapStorage, stride: Int, width: Int, height: Int) -> PixelPlane {
            PixelPlane(baseAddress: storage.bytes.baseAddress!, bytesPerRow: stride, rowByteCount: width, rowCount: height)
        }
        map.remap(plane(packed, stride: 256, width: 256, height: 128), into: plane(outputs[0], stride: 64, width: 64, height: 40))
        map.remap(plane(padded, stride: 300, width: 256, height: 128), into: plane(outputs[1], stride: 64, width: 64, height: 40))
        #expect(Array(outputs[0].bytes) == Array(outputs[1].bytes))
    }
}

@Suite struct PanoramaRendererTests {
    /// While a view moves, pictures come from approximate maps and the exact ones are
    /// built in the background; once they are in, the picture is the exact one.
    @Test func interactivePicturesSettleOnTheExactOnes() async throws {
        let source = try PixelBuffer(format: .i420, width: 512, height: 256)
        for plane in source.planes { for row in 0..<plane.rowCount { for x in 0..<plane.rowByteCount { plane.row(row)[x] = UInt8((x * 7 + row * 13) & 0xFF) } } }
        let settings = PanoramaSettings(view: PanoramaView(yaw: 33, pitch: 12, horizontalFOV: 80).squarePixels(width: 160, height: 90))
        let exact = try PanoramaRenderer(threads: 2).render(source, settings: settings, width: 160, height: 90)
        let renderer = PanoramaRenderer(threads: 2)
        _ = try renderer.render(source, settings: settings, width: 160, height: 90, interactive: true)
        #expect(renderer.lastRenderWasApproximate)
        for _ in 0..<500 where !renderer.isSettled { try await Task.sleep(for: .milliseconds(10)) }
        #expect(renderer.isSettled)
        let settled = try renderer.render(source, settings: settings, width: 160, height: 90, interactive: true)
        #expect(!renderer.lastRenderWasApproximate)
        for row in 0..<90 {
            #expect(Array(UnsafeBufferPointer(start: settled.planes[0].row(row), count: 640)) == Array(UnsafeBufferPointer(start: exact.planes[0].row(row), count: 640)))
        }
    }

    /// A top-bottom stereo source: the flat view comes from the top half (left eye) only;
    /// in VR the right eye comes from the bottom half.
    @Test func stereoSourcesShowOneEye() throws {
        let source = try PixelBuffer(format: .i420, width: 256, height: 256)
        for row in 0..<256 { source.planes[0].row(row).update(repeating: row < 128 ? 60 : 200, count: 256) }
        for plane in 1...2 { for row in 0..<128 { source.planes[plane].row(row).update(repeating: 128, count: 128) } }
        let renderer = PanoramaRenderer(threads: 2)
        var settings = PanoramaSettings(view: PanoramaView(horizontalFOV: 90).squarePixels(width: 64, height: 36), stereo: .topBottom)
        let flat = try renderer.render(source, settings: settings, width: 64, height: 36)
        let grey = Int(flat.planes[0].row(18)[32 * 4])
        #expect(abs(grey - (60 - 16) * 255 / 219) <= 1, "flat view from the top half: \(grey)")
        settings.isVR = true
        let pair = try renderer.render(source, settings: settings, width: 128, height: 36)
        let left = Int(pair.planes[0].row(18)[32 * 4]), right = Int(pair.planes[0].row(18)[96 * 4])
        #expect(abs(left - (60 - 16) * 255 / 219) <= 1 && abs(right - (200 - 16) * 255 / 219) <= 1, "eyes \(left), \(right)")
    }
}

extension LensDistortionTests {
    /// A lens off the eye's middle: the viewport pixel at the lens centre sees the middle
    /// of the undistorted picture, the two eyes' maps mirror each other, and the picture
    /// reaches to the corner farthest from the lens.
    @Test func anOffCentreLensSeesThePictureMiddleAtItsCentre() throws {
        let lens = LensDistortion.cardboardV2
        let left = try LensDistortionMap(width: 200, height: 160, distortion: lens, lensCentre: 0.6)
        let right = try LensDistortionMap(width: 200, height: 160, distortion: lens, lensCentre: 0.4)
        #expect(left.reach == right.reach && left.reach == lens.reach(aspect: 200 / 160, lensCentre: 0.6))
        #expect(left.reach > lens.reach(aspect: 200 / 160), "the far corner is farther than from the middle")
        // Green at the lens centre (column 120 of the left eye) reads the picture's middle.
        let origin = Int(left.origins[(80 * 200 + 120) * 3 + 1])
        #expect(abs(origin % 200 - 99) <= 1 && abs(origin / 200 - 79) <= 1, "read \(origin % 200), \(origin / 200)")
        // Mirror images: column x of one eye reads the mirrored column of the other.
        for (y, x) in [(10, 30), (80, 5), (150, 190), (40, 120)] {
            let a = Int(left.origins[(y * 200 + x) * 3 + 1]), b = Int(right.origins[(y * 200 + 199 - x) * 3 + 1])
            #expect((a < 0) == (b < 0))
            if a >= 0 { #expect(a / 200 == b / 200 && abs(a % 200 - (198 - b % 200)) <= 1, "pixel \(x), \(y): \(a % 200) against \(b % 200)") }
        }
        #expect(throws: PanoramaError.invalidLensCentre(1.5)) { try LensDistortionMap(width: 20, height: 20, distortion: lens, lensCentre: 1.5) }
    }

    @Test func thePresetsAreCardboardsLenses() {
        #expect(LensDistortion.presets.map(\.name) == ["cardboard-v1", "cardboard-v2"])
        #expect(LensDistortion.presets[0].lens == .cardboard && LensDistortion.presets[1].lens.k1 == 0.34 && LensDistortion.presets[1].lens.k2 == 0.55)
        #expect(LensDistortion.presets.map(\.interLensMillimetres) == [60, 64])
    }
}

@Suite struct PanoramaProjectionTests {
    @Test func namesRoundTripAndV360sShortNamesAreTaken() {
        for name in PanoramaProjection.names { #expect(PanoramaProjection(name: name)?.name == name) }
        #expect(PanoramaProjection(name: "e") == .equirectangular && PanoramaProjection(name: "he") == .halfEquirectangular)
        #expect(PanoramaProjection(name: "flat") == nil && PanoramaProjection(name: "") == nil)
    }

    @Test func cubemapLayoutsAreCheckedLikeV360sOptions() throws {
        #expect(try CubemapLayout(faceOrder: "FBRLUD", faceRotations: "012302").faceOrder == "fbrlud")
        #expect(throws: PanoramaError.invalidFaceOrder("rludf")) { try CubemapLayout(faceOrder: "rludf") }
        #expect(throws: PanoramaError.invalidFaceOrder("rrudfb")) { try CubemapLayout(faceOrder: "rrudfb") }
        #expect(throws: PanoramaError.invalidFaceOrder("rludfx")) { try CubemapLayout(faceOrder: "rludfx") }
        #expect(throws: PanoramaError.invalidFaceRotations("000004")) { try CubemapLayout(faceRotations: "000004") }
        #expect(throws: PanoramaError.invalidFaceRotations("0000")) { try CubemapLayout(faceRotations: "0000") }
        #expect(throws: PanoramaError.invalidPadding(-1)) { try CubemapLayout(padding: -1) }
    }

    /// Sources too small for their faces, padding that leaves no face and impossible lenses
    /// are errors before anything is allocated.
    @Test func sourcesThatCannotHoldTheProjectionAreErrors() throws {
        let view = PanoramaView()
        func map(_ projection: PanoramaProjection, _ width: Int, _ height: Int) throws {
            _ = try PanoramaMap(view: view, projection: projection, sourceWidth: width, sourceHeight: height, width: 8, height: 8)
        }
        #expect(throws: PanoramaError.tooSmallForProjection("c3x2", width: 2, height: 2)) { try map(.cubemap3x2(.standard), 2, 2) }
        #expect(throws: PanoramaError.tooSmallForProjection("c6x1", width: 5, height: 1)) { try map(.cubemap6x1(.standard), 5, 1) }
        #expect(throws: PanoramaError.tooSmallForProjection("eac", width: 3, height: 1)) { try map(.equiAngularCubemap, 3, 1) }
        #expect(throws: PanoramaError.tooSmallForProjection("dfisheye", width: 1, height: 1)) { try map(.dualFisheye(fieldOfView: 180), 1, 1) }
        #expect(throws: PanoramaError.invalidLensFieldOfView(0)) { try map(.dualFisheye(fieldOfView: 0), 64, 32) }
        #expect(throws: PanoramaError.invalidLensFieldOfView(361)) { try map(.dualFisheye(fieldOfView: 361), 64, 32) }
        #expect(throws: PanoramaError.invalidPadding(8)) { try map(.cubemap3x2(try CubemapLayout(padding: 8)), 48, 32) }
        // The smallest sources that can be sampled are, on every cell.
        for projection: PanoramaProjection in [.halfEquirectangular, .cubemap3x2(.standard), .equiAngularCubemap, .dualFisheye(fieldOfView: 190)] {
            try map(projection, 3, 2)
        }
        try map(.cubemap6x1(.standard), 6, 1)
    }

    /// Every cell of every map lies inside the source, for views all round the sphere.
    @Test(arguments: [PanoramaProjection.halfEquirectangular, .cubemap3x2(.standard), .cubemap6x1(try! CubemapLayout(faceOrder: "fbudlr", faceRotations: "123012", padding: 3)),
                      .equiAngularCubemap, .dualFisheye(fieldOfView: 200)])
    func everyCellIsInsideTheSource(projection: PanoramaProjection) throws {
        let (sourceWidth, sourceHeight) = projection == .cubemap6x1(try CubemapLayout(faceOrder: "fbudlr", faceRotations: "123012", padding: 3)) ? (301, 50) : (301, 203)
        for yaw in stride(from: -180 as Float, through: 180, by: 45) {
            for pitch in stride(from: -90 as Float, through: 90, by: 30) {
                let map = try PanoramaMap(view: PanoramaView(yaw: yaw, pitch: pitch, roll: yaw / 3, horizontalFOV: 120).squarePixels(width: 64, height: 48),
                                          projection: projection, sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: 64, height: 48)
                let limit = Int32(sourceWidth * sourceHeight)
                // A regular bilinear block's bottom-right cell is inside too.
                #expect(map.offsets.allSatisfy { $0 >= 0 ? $0 + Int32(sourceWidth) + 1 < limit : Int(-$0 - 1) * 4 < map.irregular.count })
                #expect(map.irregular.allSatisfy { $0 >= 0 && $0 < limit })
            }
        }
    }
}

extension PanoramaProjectionTests {
    /// The interactive map of each other projection lands on the exact map's pixel nearly
    /// everywhere and never more than a source pixel away: it interpolates only inside a
    /// face or lens, and computes face edges exactly. (Half-equirectangular has poles, where
    /// longitude runs fast as in an equirectangular picture: its views keep away from them.)
    @Test(arguments: [PanoramaProjection.halfEquirectangular, .cubemap3x2(.standard), .cubemap6x1(.standard), .equiAngularCubemap,
                      .dualFisheye(fieldOfView: 190)])
    func theInteractiveMapStaysNearTheExactOne(projection: PanoramaProjection) throws {
        let (sourceWidth, sourceHeight) = projection == .cubemap6x1(.standard) ? (1536, 256) : (960, 640)
        let poles = projection == .halfEquirectangular ? [] : [PanoramaView(yaw: 45, pitch: 80, horizontalFOV: 120)]
        for view in [PanoramaView(yaw: 10, pitch: 5, horizontalFOV: 90), PanoramaView(yaw: 179, pitch: -20, roll: 30, horizontalFOV: 110),
                     PanoramaView(yaw: -60, pitch: 40, horizontalFOV: 60)] + poles {
            func map(_ precision: PanoramaMap.Precision) throws -> PanoramaMap {
                try PanoramaMap(view: view.squarePixels(width: 320, height: 180), projection: projection, sourceWidth: sourceWidth,
                                sourceHeight: sourceHeight, width: 320, height: 180, interpolation: .nearest, precision: precision, threads: 2)
            }
            let exact = try map(.exact), fast = try map(.interactive)
            var same = 0, worst = 0
            for (a, b) in zip(exact.offsets, fast.offsets) {
                if a == b { same += 1 }
                worst = max(worst, abs(Int(a) % sourceWidth - Int(b) % sourceWidth), abs(Int(a) / sourceWidth - Int(b) / sourceWidth))
            }
            #expect(Double(same) / Double(exact.offsets.count) > 0.9, "\(projection.name) \(view): \(same) of \(exact.offsets.count) identical")
            #expect(worst <= 1, "\(projection.name) \(view): a pixel \(worst) source pixels away")
        }
    }
}
