import Testing
@testable import ReelCore

@Suite struct ABLoopTests {
    @Test func theKeySetsATheBThenClears() {
        var loop = ABLoop()
        #expect(!loop.isActive && loop.jumpTarget(at: 100) == nil)
        loop.toggle(at: 2)
        #expect(loop.start == 2 && loop.end == nil && !loop.isActive)
        #expect(loop.jumpTarget(at: 50) == nil, "A alone loops nothing")
        loop.toggle(at: 5.5)
        #expect(loop.isActive && loop.start == 2 && loop.end == 5.5)
        #expect(loop.jumpTarget(at: 5.49) == nil)
        #expect(loop.jumpTarget(at: 5.5) == 2)
        #expect(loop.jumpTarget(at: 9) == 2, "past B (a seek beyond it) goes back too")
        loop.toggle(at: 3)
        #expect(loop == ABLoop())
    }

    @Test func bBeforeASwapsThemAndBAtAIsIgnored() {
        var loop = ABLoop()
        loop.toggle(at: 8)
        loop.toggle(at: 8)
        #expect(loop.start == 8 && loop.end == nil, "a loop over nothing is not taken")
        loop.toggle(at: 3)
        #expect(loop.start == 3 && loop.end == 8)
        #expect(ABLoop(from: 4, to: 4) == ABLoop())
        #expect(ABLoop(from: .nan, to: 4) == ABLoop())
        #expect(ABLoop(from: 7, to: 1).start == 1)
    }

    @Test func aCountedLoopGoesBackThatManyTimesThenPassesB() {
        var loop = ABLoop(from: 1, to: 2, times: 2)
        #expect(loop.takeJump(at: 1.5) == nil, "inside the loop nothing is counted")
        #expect(loop.takeJump(at: 2) == 1 && loop.remainingLoops == 1)
        #expect(loop.takeJump(at: 2.04) == 1 && loop.remainingLoops == 0)
        #expect(loop.takeJump(at: 2) == nil && loop.jumpTarget(at: 3) == nil, "spent: B is passed")
        #expect(loop.isActive, "the points stay set, as mpv's do")
        loop.toggle(at: 5)
        #expect(!loop.isActive && loop.remainingLoops == 0, "the key does not renew a spent count")
        var endless = ABLoop(from: 1, to: 2)
        for _ in 0..<1000 { #expect(endless.takeJump(at: 2) == 1) }
        #expect(ABLoop(from: 1, to: 2, times: 0).jumpTarget(at: 2) == nil)
    }

    @Test func theDisplayNamesThePoints() {
        var loop = ABLoop()
        loop.toggle(at: 61.25)
        #expect(loop.description == "A-B loop: A 1:01.3")
        loop.toggle(at: 62)
        #expect(loop.description == "A-B loop: 1:01.3 – 1:02.0")
        loop.toggle(at: 0)
        #expect(loop.description == "A-B loop cleared")
    }

    @Test func screenshotsTakeTheFirstFreeNumberAsMPVDoes() {
        #expect(ScreenshotNames.next(existing: []) == "reel-shot0001.png")
        #expect(ScreenshotNames.next(existing: ["reel-shot0001.png", "reel-shot0002.png", "reel-shot0004.png", "other.png"]) == "reel-shot0003.png")
        #expect(ScreenshotNames.next(existing: (1...9999).map { "reel-shot" + String(repeating: "0", count: 4 - String($0).count) + String($0) + ".png" }) == nil)
    }
}
