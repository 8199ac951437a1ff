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
    /// The frame its sound beeps with (0.7 for 40 ms from that frame's time); nil: no sound.
    let beepFrame: Int?

    init(late: Set<Int> = [], beepFrame: Int? = nil) {
        self.late = late
        self.beepFrame = beepFrame
    }

    func sound(in format: AudioDeviceFormat) -> OverlaySound? {
        guard let beepFrame else { return nil }
        let beep = Int(Double(beepFrame) / framesPerSecond * Double(format.sampleRate))..<Int((Double(beepFrame) / framesPerSecond + 0.04) * Double(format.sampleRate))
        let frames = Int(Double(frameCount) / framesPerSecond * Double(format.sampleRate))
        return OverlaySound(format: format, samples: (0..<frames).flatMap { Array(repeating: beep.contains($0) ? Float(0.7) : 0, count: format.channels) })
    }

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
        let id = try overlays.start(square, placement: OverlayPlacement(area: .video(PixelRect(x: 16, y: 8, width: 8, height: 8))), loops: 2, at: 1.0)
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
        #expect(Self.framesTold(events, id: id) == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
        #expect(overlays.ids.isEmpty)
    }

    /// The frames of animation `id` told as drawn, in order.
    static func framesTold(_ events: EventRecorder, id: Int) -> [Int] {
        events.all.compactMap { if case .overlayFrame(id, let frame) = $0 { frame } else { nil } }
    }

    /// On the manual clock, with sound: the square's sound (a beep with its frame 2) is mixed
    /// into the player's (a steady 0.1) where that frame is shown, in both loops, and heard
    /// when that picture is shown (within the player's own sync); nothing of it before the
    /// gift or after.
    @Test func aGiftsSoundIsHeardWithItsPictures() throws {
        let overlays = PlayerOverlays()
        overlays.soundFormat = { AudioDeviceFormat(sampleRate: 48_000, channels: 2) }
        let harness = try SessionHarness(overlays: overlays)
        try overlays.start(SquareAnimation(beepFrame: 2), placement: OverlayPlacement(area: .video(PixelRect(x: 16, y: 8, width: 8, height: 8))),
                           loops: 2, at: 1.0)
        harness.play()
        harness.run(for: 2.5)
        let audio = try #require(harness.audio)
        let beeps = audio.onsets(above: 0.5)
        let flashes = harness.video.shown.filter { abs($0.pts - 1.08) < 1e-6 || abs($0.pts - 1.28) < 1e-6 }.map(\.at)
        let offsets = zip(flashes, beeps).map { Int((($0 - $1) * 1000).rounded()) }
        print("a gift's sound: frame 2 shown minus its beep heard \(offsets) ms")
        #expect(flashes.count == 2 && beeps.count == 2, "flashes \(flashes), beeps \(beeps)")
        // Within the 4 ms the player's own sync settles to (SyncTests): the gift's sound is on its pictures' time.
        #expect(zip(flashes, beeps).allSatisfy { abs($0 - $1) <= 0.004 }, "\(offsets) ms")
        #expect(audio.samples.allSatisfy { $0 < 0.11 || $0 > 0.79 }, "the stream's sound or it with the beep, nothing else")
    }

    /// A gift that would take the budget's pixels a second beyond it is refused, with why;
    /// room made by one that stops takes one more; no budget, no limit.
    @Test func aGiftBeyondTheBudgetIsRefusedSayingWhy() throws {
        let overlays = PlayerOverlays()
        let events = EventRecorder()
        overlays.emit = { events.add($0) }
        // A square makes 8 × 8 × 25 = 1600 pixels a second.
        overlays.budget = 4000
        let first = try overlays.start(SquareAnimation())
        try overlays.start(SquareAnimation())
        #expect(throws: OverlayError.budgetSpent(needs: 1600, playing: 2, inUse: 3200, budget: 4000)) { try overlays.start(SquareAnimation()) }
        overlays.stop(first)
        try overlays.start(SquareAnimation())
        overlays.budget = 1000
        let refusal = #expect(throws: OverlayError.self) { try overlays.start(SquareAnimation()) }
        #expect(refusal == .tooLarge(width: 8, height: 8, framesPerSecond: 25, budget: 1000))
        #expect(refusal?.description.hasPrefix("refused: 8x8 at 25 fps makes 0.0 Mpx/s, more than the whole gift budget") == true, "\(String(describing: refusal))")
        overlays.budget = nil
        for _ in 0..<10 { try overlays.start(SquareAnimation()) }
        #expect(overlays.ids.count == 12)
        #expect(events.count { if case .overlayStarted = $0 { true } else { false } } == 13)
    }

    /// Frames not made in time are counted, and the frame before is drawn in their place.
    @Test func aFrameNotMadeInTimeIsCountedAndTheOneBeforeStays() throws {
        let overlays = PlayerOverlays()
        let events = EventRecorder()
        overlays.emit = { events.add($0) }
        let harness = try SessionHarness(audio: false, overlays: overlays)
        let id = try overlays.start(SquareAnimation(late: [2, 3]), placement: OverlayPlacement(area: .video(PixelRect(x: 16, y: 8, width: 8, height: 8))), at: 1.0)
        harness.play()
        harness.run(for: 2)
        #expect(overlays.framesLate == 2)
        let lumas = try harness.video.frames.filter { ($0.presentationTime?.seconds ?? 0) >= 1.0 - 1e-9 }.prefix(5).map { try PixelBuffer(wrapping: $0).planes[0].row(8)[16] }
        #expect(lumas.count == 5 && lumas[2] == lumas[1] && lumas[3] == lumas[1] && lumas[4] > lumas[1], "\(lumas)")
        #expect(Self.framesTold(events, id: id) == [0, 1, 4], "frames drawn again are not told again")
    }

    /// Eight gifts whose frames are never made in time (decoders far behind) do not hold the
    /// stream: each of its pictures is shown on its own time, none dropped, and every gift
    /// frame missed is counted.
    @Test func eightGiftsBehindNeverMakeTheStreamLate() throws {
        let overlays = PlayerOverlays()
        let harness = try SessionHarness(audio: false, overlays: overlays)
        for index in 0..<8 {
            try overlays.start(SquareAnimation(late: Set(0..<5)), placement: OverlayPlacement(area: .video(PixelRect(x: 8 * index, y: 8, width: 8, height: 8))),
                               loops: 0, at: 0)
        }
        harness.run(for: 0.5)
        let playedAt = harness.now
        harness.play()
        harness.run(for: 2)
        let shown = harness.video.shown.dropFirst()
        #expect(shown.count == 49, "\(shown.count) of the 49 pictures after the first")
        #expect(shown.enumerated().allSatisfy { abs($0.element.at - (playedAt + Double($0.offset + 1) * 0.04)) < 1e-9 })
        #expect(harness.control.read { $0.statistics.framesDropped } == 0)
        #expect(overlays.framesLate == 8 * 50, "\(overlays.framesLate)")
    }

    /// Stopped before its end: closed and told at once, drawn no more.
    @Test func aStoppedGiftIsClosedAndTold() throws {
        let overlays = PlayerOverlays()
        let events = EventRecorder()
        overlays.emit = { events.add($0) }
        let square = SquareAnimation()
        let id = try overlays.start(square, loops: 0, at: 0)
        overlays.stop(id)
        #expect(square.closed && overlays.ids.isEmpty)
        #expect(events.count { if case .overlayFinished(id) = $0 { true } else { false } } == 1)
    }
}
