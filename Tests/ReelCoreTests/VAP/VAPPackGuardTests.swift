import Testing
@testable import ReelCore

/// `reel vap pack --max-edge` and the platforms `reel vap info` names: sizes worked out
/// by hand from VapTool's layout (alpha at half scale 4 pixels beside the colour, the
/// video padded to multiples of 16).
@Suite struct VAPPackGuardTests {
    @Test func aSquareAnimationShrinksUntilColourGapAndAlphaFit() throws {
        // 1024 + 4 + 512 = 1540 rows, padded to 1552: over 1504.
        #expect(VAPPackLayout(width: 1024, height: 1024).longestEdge == 1552)
        let fitting = try #require(VAPPackLayout.fittingFrameSize(width: 1024, height: 1024, maxEdge: 1504))
        // 1000 + 4 + 500 = 1504 exactly; 1001 + 4 + 501 = 1506 pads to 1520.
        #expect(fitting == (1000, 1000))
        #expect(VAPPackLayout(width: 1001, height: 1001).longestEdge == 1520)
    }

    @Test func aFullHDPortraitKeepsItsShape() throws {
        let fitting = try #require(VAPPackLayout.fittingFrameSize(width: 1080, height: 1920, maxEdge: 1504))
        // The height is the longest edge: 1504; the width 1080 × 1504 / 1920 = 846.
        #expect(fitting == (846, 1504))
        #expect(VAPPackLayout(width: 846, height: 1504).videoWidth == 1280)
    }

    @Test func whatFitsAlreadyIsKept() {
        #expect(VAPPackLayout.fittingFrameSize(width: 750, height: 1334, maxEdge: 1504)! == (750, 1334))
        #expect(VAPPackLayout.fittingFrameSize(width: 64, height: 64, maxEdge: 8) == nil)
    }

    @Test func masksKeepTheirSlotsWithinTheEdge() throws {
        let masks = [(width: 300, height: 120), (width: 200, height: 200)]
        let fitting = try #require(VAPPackLayout.fittingFrameSize(width: 1600, height: 900, maskSizes: masks, maxEdge: 1024))
        func packed(_ longest: Int) -> Int {
            let scale = Double(longest) / 1600
            let scaledMasks = masks.map { (Int((Double($0.width) * scale).rounded(.up)) + 4, Int((Double($0.height) * scale).rounded(.up)) + 4) }
            return VAPPackLayout(width: longest, height: Int((900 * scale).rounded()), maskSizes: scaledMasks).longestEdge
        }
        #expect(fitting.width < 1600 && packed(fitting.width) <= 1024 && packed(fitting.width + 1) > 1024)
        #expect(abs(Double(fitting.height) - Double(fitting.width) * 900 / 1600) <= 0.5)
    }

    @Test func platformsFollowTheirDecodersLimits() {
        func summary(_ codec: String, _ width: Int, _ height: Int) -> [Bool] {
            VAPPlatforms.verdicts(codec: codec, width: width, height: height).map(\.isSafe)
        }
        // Tencent's demo animations: H.264 within 1504 pixels play everywhere.
        #expect(summary("h264", 672, 1504) == [true, true, true])
        #expect(summary("h264", 1536, 2048) == [false, true, true])
        // 256 × 256 macroblocks, over level 5.1's 36 864.
        #expect(summary("h264", 4096, 4096) == [false, false, false])
        #expect(summary("hevc", 720, 1280) == [false, true, false])
        let android = VAPPlatforms.verdicts(codec: "h264", width: 1536, height: 2048)[0]
        #expect(android.reason?.contains("2048 px") == true && android.reason?.contains("--max-edge 1504") == true)
        #expect(VAPPlatforms.summary(VAPPlatforms.verdicts(codec: "h264", width: 672, height: 1504)) == "Android yes; iOS yes; web yes")
    }
}
