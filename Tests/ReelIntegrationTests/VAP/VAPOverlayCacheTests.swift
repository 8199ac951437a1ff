import Foundation
import Reel
import Testing

/// The gift cache (`reel play --overlay-cache`): a gift started again while its frames are
/// kept decodes none of them, and shows the very pictures a gift without the cache renders.
@Suite struct VAPOverlayCacheTests {
    let gift: String

    init() throws {
        gift = try Paths.sharedFixtures("vap").appendingPathComponent("demo.mp4").path
    }

    /// Every frame of `animation` at `width` × `height`, as the display asks for them.
    static func allFrames(of animation: VAPOverlayAnimation, width: Int, height: Int) throws -> [[UInt8]] {
        try (0..<animation.frameCount).map { index in
            animation.prefetch(from: index, width: width, height: height)
            let picture = try #require(animation.frame(index, width: width, height: height, waiting: true), "frame \(index)")
            return (0..<height).flatMap { row in Array(UnsafeBufferPointer(start: picture.planes[0].row(row), count: 4 * width)) }
        }
    }

    @Test func aGiftStartedAgainDecodesNothingAndShowsTheSamePictures() throws {
        let cache = VAPOverlayCache()
        let first = try VAPOverlayAnimation(path: gift, cache: cache)
        defer { first.close() }
        let (width, height) = (first.width / 2, first.height / 2)
        let firstFrames = try Self.allFrames(of: first, width: width, height: height)
        #expect(first.framesRendered >= first.frameCount, "\(first.framesRendered) frames rendered of \(first.frameCount)")
        #expect(cache.bytes == first.frameCount * width * height * 4)

        let again = try VAPOverlayAnimation(path: gift, cache: cache)
        defer { again.close() }
        let againFrames = try Self.allFrames(of: again, width: width, height: height)
        #expect(again.framesRendered == 0, "\(again.framesRendered) frames decoded for a gift the cache holds")

        let uncached = try VAPOverlayAnimation(path: gift)
        defer { uncached.close() }
        let uncachedFrames = try Self.allFrames(of: uncached, width: width, height: height)
        #expect(againFrames == uncachedFrames && firstFrames == uncachedFrames, "the cached pictures are the rendered ones")
        print("gift cache: \(first.frameCount) frames rendered at \(width)x\(height) the first time, \(again.framesRendered) the second; \(cache.bytes) bytes kept")
    }

    @Test func otherContentOtherSizesAndASmallCacheDecodeAgain() throws {
        let small = VAPOverlayCache(capacity: 10 * 100 * 100 * 4)
        let first = try VAPOverlayAnimation(path: gift, cache: small)
        defer { first.close() }
        let (width, height) = (100, 100 * first.height / first.width)
        _ = try Self.allFrames(of: first, width: width, height: height)
        #expect(small.bytes <= 10 * 100 * 100 * 4)
        let again = try VAPOverlayAnimation(path: gift, cache: small)
        defer { again.close() }
        _ = try Self.allFrames(of: again, width: width, height: height)
        // Only the last frames kept; the loop's start evicted them before their turn.
        #expect(again.framesRendered >= again.frameCount - 10, "\(again.framesRendered) decoded with room for 10 frames")

        let cache = VAPOverlayCache()
        let sized = try VAPOverlayAnimation(path: gift, cache: cache)
        defer { sized.close() }
        _ = try Self.allFrames(of: sized, width: width, height: height)
        let larger = try VAPOverlayAnimation(path: gift, cache: cache)
        defer { larger.close() }
        _ = try Self.allFrames(of: larger, width: 2 * width, height: 2 * height)
        #expect(larger.framesRendered >= larger.frameCount, "another size is rendered afresh")
        let named = try VAPOverlayAnimation(path: gift, content: VAPFusionContent(texts: ["[sTxt1]": "Anna"]), cache: cache)
        defer { named.close() }
        _ = try Self.allFrames(of: named, width: width, height: height)
        #expect(named.framesRendered >= named.frameCount, "other content is rendered afresh")
    }
}
