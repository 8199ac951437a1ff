import Testing
import ReelCore

@Suite struct OverlayPlacementTests {
    @Test func namedAreasFitTheAnimationAndKeepItsShape() throws {
        let picture = (width: 1920, height: 1080), gift = (width: 750, height: 1334)
        let centre = try #require(OverlayPlacement().rect(animation: gift, picture: picture))
        #expect(centre == PixelRect(x: 656, y: 0, width: 607, height: 1080))
        let bottom = try #require(OverlayPlacement(area: .bottom, scale: 0.5).rect(animation: gift, picture: picture))
        #expect(bottom.height == 270 && bottom.y + bottom.height == 1080 && abs(bottom.x + bottom.width / 2 - 960) <= 1)
        let top = try #require(OverlayPlacement(area: .top).rect(animation: gift, picture: picture))
        #expect(top.y == 0 && top.height == 540)
        let rect = try #require(OverlayPlacement(area: .video(PixelRect(x: 100, y: 50, width: 400, height: 400))).rect(animation: (200, 100), picture: picture))
        #expect(rect == PixelRect(x: 100, y: 150, width: 400, height: 200))
        #expect(OverlayPlacement().rect(animation: (0, 10), picture: picture) == nil)
    }

    /// A window rectangle maps back through where the picture is drawn in the window.
    @Test func windowRectanglesMapToVideoPixels() throws {
        // A 1920x1080 picture drawn at half size with a 40-pixel bar on top.
        let shown = PixelRect(x: 0, y: 40, width: 960, height: 540)
        let placement = OverlayPlacement(area: .window(PixelRect(x: 480, y: 310, width: 200, height: 200)))
        let rect = try #require(placement.rect(animation: (100, 100), picture: (1920, 1080), pictureInWindow: shown))
        #expect(rect == PixelRect(x: 960, y: 540, width: 400, height: 400))
        #expect(placement.rect(animation: (100, 100), picture: (1920, 1080)) == nil, "no window to map from")
    }

    @Test func areasAsTheCommandLineWritesThem() {
        #expect(OverlayPlacement.area(parsing: "bottom") == .bottom)
        #expect(OverlayPlacement.area(parsing: "10:20:300:400") == .video(PixelRect(x: 10, y: 20, width: 300, height: 400)))
        #expect(OverlayPlacement.area(parsing: "-10:20:300:400w") == .window(PixelRect(x: -10, y: 20, width: 300, height: 400)))
        for text in ["", "middle", "1:2:3", "1:2:0:4", "1:2:3:4:5", "a:b:c:d", "1:2:3:99999999"] {
            #expect(OverlayPlacement.area(parsing: text) == nil, "\(text)")
        }
    }
}

@Suite struct PremultipliedBlendTests {
    /// FFmpeg's overlay arithmetic, pixel by pixel, with the overlay cut off at the edges.
    @Test func blendingIsFFmpegsOverlayArithmetic() throws {
        let base = try PixelBuffer(format: .bgra, width: 4, height: 3)
        for row in 0..<3 { for index in 0..<16 { base.planes[0].row(row)[index] = UInt8((row * 16 + index) * 5) } }
        let before = (0..<3).map { Array(UnsafeBufferPointer(start: base.planes[0].row($0), count: 16)) }
        let overlay = try PixelBuffer(format: .rgba, width: 2, height: 2)
        let pixels: [[UInt8]] = [[200, 100, 50, 255], [60, 0, 0, 128], [9, 9, 9, 0], [1, 2, 3, 77]]
        for (index, pixel) in pixels.enumerated() {
            for channel in 0..<4 { overlay.planes[0].row(index / 2)[4 * (index % 2) + channel] = pixel[channel] }
        }
        // At (3, -1) only the overlay's alpha-0 pixel lands on the picture; the rest is cut off.
        PremultipliedBlend.blend(overlay, onto: base, x: 3, y: -1)
        #expect((0..<3).map { Array(UnsafeBufferPointer(start: base.planes[0].row($0), count: 16)) } == before)
        func div255(_ x: Int) -> Int { ((x + 128) * 257) >> 16 }
        PremultipliedBlend.blend(overlay, onto: base, x: 1, y: 1)
        for (index, pixel) in pixels.enumerated() {
            let column = 1 + index % 2, row = 1 + index / 2
            let d = before[row][(4 * column)..<(4 * column + 4)].map(Int.init)
            let got = Array(UnsafeBufferPointer(start: base.planes[0].row(row) + 4 * column, count: 4)).map(Int.init)
            let alpha = Int(pixel[3])
            // BGRA base: the overlay's red lands in byte 2.
            let expected = alpha == 0 ? d : [min(div255(d[0] * (255 - alpha)) + Int(pixel[2]), 255), min(div255(d[1] * (255 - alpha)) + Int(pixel[1]), 255),
                                             min(div255(d[2] * (255 - alpha)) + Int(pixel[0]), 255), d[3]]
            #expect(got == expected, "overlay pixel \(index)")
        }
    }
}

extension PremultipliedBlendTests {
    /// Every vector kernel this CPU runs blends the same bytes as the portable loop (the one
    /// checked above against FFmpeg's arithmetic): random premultiplied pictures, a quarter
    /// transparent, at widths around each kernel's step, partly outside, over BGRA and RGBA.
    @Test(arguments: PixelKernel.available.filter { $0 != .portable })
    func everyKernelBlendsAsThePortableLoop(kernel: PixelKernel) throws {
        var random = SplitMix(seed: 7)
        for (width, height) in [(1, 1), (3, 2), (4, 3), (7, 5), (8, 4), (9, 3), (17, 6), (33, 7)] {
            for format in [PixelBufferFormat.bgra, .rgba] {
                let gift = try OverlayCompositionTests.randomGift(width: width, height: height, random: &random)
                let portable = try OverlayCompositionTests.randomPicture(format: format, width: 29, height: 9, random: &random)
                let vector = try portable.converted(to: format)
                let (x, y) = (random.next() % 30 - 5, random.next() % 10 - 3)
                PremultipliedBlend.blend(gift, onto: portable, x: x, y: y, kernel: .portable)
                PremultipliedBlend.blend(gift, onto: vector, x: x, y: y, kernel: kernel)
                #expect(OverlayCompositionTests.bytes(of: vector) == OverlayCompositionTests.bytes(of: portable), "\(width)x\(height) at \(x),\(y) over \(format)")
            }
        }
    }
}

@Suite struct ByteBoundedCacheTests {
    @Test func theLeastRecentlyUsedGoFirstAndTooLargeIsNotKept() {
        var cache = ByteBoundedCache<String, Int>(capacity: 100)
        #expect(cache.insert(1, cost: 40, for: "a").isEmpty)
        #expect(cache.insert(2, cost: 40, for: "b").isEmpty)
        #expect(cache.value(for: "a") == 1)
        #expect(cache.insert(3, cost: 40, for: "c") == ["b"], "b was used least recently")
        #expect(cache.bytes == 80 && cache.count == 2)
        #expect(cache.insert(4, cost: 101, for: "d").isEmpty && cache.value(for: "d") == nil, "larger than the cache: not kept")
        #expect(cache.insert(5, cost: 100, for: "a") == ["c"] && cache.bytes == 100 && cache.value(for: "a") == 5)
        cache.remove("a")
        #expect(cache.bytes == 0 && cache.count == 0)
    }
}

@Suite struct OverlayScheduleTests {
    @Test func framesAtTheirTimesInDrawingOrderUntilTheLoopsEnd() {
        var schedule = OverlaySchedule()
        schedule.add(.init(id: 1, start: 10, framesPerSecond: 25, frameCount: 50, loops: 2, z: 0))
        schedule.add(.init(id: 2, start: 11, framesPerSecond: 30, frameCount: 30, loops: 0, z: 5))
        schedule.add(.init(id: 3, start: 10.5, framesPerSecond: 25, frameCount: 10, loops: 1, z: 0))
        #expect(schedule.entries.map(\.id) == [1, 3, 2])
        #expect(schedule.frames(at: 9.99).isEmpty)
        #expect(schedule.frames(at: 10).map(\.frame) == [0])
        #expect(schedule.frames(at: 10.04).map(\.frame) == [1], "frame 1 is due at exactly 1/25 s")
        #expect(schedule.frames(at: 11.5).map { [$0.id, $0.frame] } == [[1, 37], [2, 15]], "3 ended after its 10 frames")
        #expect(schedule.frames(at: 13.99).map { [$0.id, $0.frame] } == [[1, 49], [2, 29]])
        #expect(schedule.frames(at: 14.0).map(\.id) == [2], "1 ended after two loops of 50 frames")
        #expect(schedule.removeEnded(at: 14).map(\.id) == [1, 3])
        #expect(schedule.entries.map(\.id) == [2])
        #expect(schedule.remove(id: 2) && !schedule.remove(id: 2))
    }
}

@Suite struct OverlayRequestTests {
    @Test func requestsAsTheCommandLineWritesThem() throws {
        let request = try OverlayRequest(parsing: #"gifts/rocket.mp4@3.5,pos=bottom,scale=0.5,z=2,loops=0,sTxt1=Hi\, Reel,sImg1=a.png"#)
        #expect(request.path == "gifts/rocket.mp4" && request.start == 3.5)
        #expect(request.placement == OverlayPlacement(area: .bottom, scale: 0.5) && request.z == 2 && request.loops == 0)
        #expect(request.texts == ["[sTxt1]": "Hi, Reel"] && request.images == ["[sImg1]": "a.png"])
        let plain = try OverlayRequest(parsing: "me@host.mp4")
        #expect(plain.path == "me@host.mp4" && plain.start == nil && plain.loops == 1)
        for text in ["", "@3", "g.mp4,pos=middle", "g.mp4,scale=2", "g.mp4,z=x", "g.mp4,loops=-1", "g.mp4,colour=red", "g.mp4,pos", "g.mp4@-1"] {
            #expect(throws: OverlayRequestError.self, "\(text)") { try OverlayRequest(parsing: text) }
        }
    }
}
