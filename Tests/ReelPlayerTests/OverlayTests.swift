import Foundation
import Testing
@testable import ReelPlayer
import ReelCore

/// An 8 × 8 opaque square whose red says which frame it is, made at once.
final class SquareAnimation: OverlayAnimation, @unchecked Sendable {
    let width = 8
    let height = 8
    let framesPerSecond = 25.0
    let frameCount = 5
    private let lock = NSLock()
    private var isClosed = false
    var closed: Bool { lock.withLock { isClosed } }
    /// Frames never made in time (a decoder behind).
    let late: Set<Int>

    init(late: Set<Int> = []) { self.late = late }

    static func red(ofFrame index: Int) -> UInt8 { UInt8(40 * index + 20) }

    func frame(_ index: Int, width: Int, height: Int, waiting: Bool) -> PixelBuffer? {
        guard !late.contains(index), let picture = try? PixelBuffer(format: .rgba, width: width, height: height) else { return nil }
        for row in 0..<height {
            for column in 0..<width {
                let pixel = picture.planes[0].row(row) + 4 * column
                (pixel[0], pixel[1], pixel[2], pixel[3]) = (Self.red(ofFrame: index), 200, 10, 255)
            }
        }
        return picture
    }

    func prefetch(from index: Int, width: Int, height: Int) {}

    func close() { lock.withLock { isClosed = true } }
}

@Suite struct OverlayTests {
    /// On the manual clock: the square is drawn where it is placed, the frame of its time
    /// (two loops of 5 frames at 25 a second from 1 s), over every picture then and over no
    /// other; then it ends, closed and told.
    @Test func aGiftIsDrawnWhereAndWhenItIsDueThenEnds() throws {
        let overlays = PlayerOverlays()
        let events = EventRecorder()
        overlays.emit = { events.add($0) }
        let harness = try SessionHarness(audio: false, overlays: overlays)
        let square = SquareAnimation()
        let id = overlays.start(square, placement: OverlayPlacement(area: .video(PixelRect(x: 16, y: 8, width: 8, height: 8))), loops: 2, at: 1.0)
        harness.play()
        harness.run(for: 2.5)
        var carried = 0
        var lumaByIndex: [Int: Set<UInt8>] = [:]
        let plain = try harness.video.frames.first.map { try PixelBuffer(wrapping: $0).planes[0].row(8)[16] } ?? 0
        for frame in harness.video.frames {
            let pts = try #require(frame.presentationTime?.seconds)
            let due = pts >= 1.0 - 1e-9 && pts < 1.4 - 1e-9
            #expect(frame.pixelFormat == .yuv420p, "drawn back into the picture's own layout")
            let picture = try PixelBuffer(wrapping: frame)
            let inside = picture.planes[0].row(8)[16], outside = picture.planes[0].row(8)[15]
            if due {
                carried += 1
                lumaByIndex[Int(((pts - 1.0) * 25 + 1e-6).rounded(.down)) % 5, default: []].insert(inside)
            } else {
                #expect(inside == plain, "frame at \(pts) s carries no square")
            }
            #expect(outside == plain, "frame at \(pts) s: the square stays in its place")
        }
        // Each frame of the square in both loops alike, its red (and so its luma) rising
        // from frame to frame.
        let lumas = (0..<5).map { lumaByIndex[$0] ?? [] }
        #expect(lumas.allSatisfy { $0.count == 1 }, "\(lumas)")
        let levels = lumas.compactMap(\.first)
        #expect(levels.count == 5 && zip(levels, levels.dropFirst()).allSatisfy { $0 < $1 } && levels[0] != plain, "\(levels)")
        #expect(carried == 10)
        #expect(square.closed)
        let told = events.all.compactMap { event -> String? in
            switch event {
            case .overlayStarted(let started): "started \(started)"
            case .overlayFinished(let finished): "finished \(finished)"
            default: nil
            }
        }
        #expect(told == ["started \(id)", "finished \(id)"])
        #expect(overlays.ids.isEmpty)
    }

    /// Frames not made in time are counted, and the frame before is drawn in their place.
    @Test func aFrameNotMadeInTimeIsCountedAndTheOneBeforeStays() throws {
        let overlays = PlayerOverlays()
        let harness = try SessionHarness(audio: false, overlays: overlays)
        overlays.start(SquareAnimation(late: [2, 3]), placement: OverlayPlacement(area: .video(PixelRect(x: 16, y: 8, width: 8, height: 8))), at: 1.0)
        harness.play()
        harness.run(for: 2)
        #expect(overlays.framesLate == 2)
        let lumas = try harness.video.frames.filter { ($0.presentationTime?.seconds ?? 0) >= 1.0 - 1e-9 }.prefix(5).map { try PixelBuffer(wrapping: $0).planes[0].row(8)[16] }
        #expect(lumas.count == 5 && lumas[2] == lumas[1] && lumas[3] == lumas[1] && lumas[4] > lumas[1], "\(lumas)")
    }

    /// Stopped before its end: closed and told at once, drawn no more.
    @Test func aStoppedGiftIsClosedAndTold() throws {
        let overlays = PlayerOverlays()
        let events = EventRecorder()
        overlays.emit = { events.add($0) }
        let square = SquareAnimation()
        let id = overlays.start(square, loops: 0, at: 0)
        overlays.stop(id)
        #expect(square.closed && overlays.ids.isEmpty)
        #expect(events.count { if case .overlayFinished(id) = $0 { true } else { false } } == 1)
    }
}
