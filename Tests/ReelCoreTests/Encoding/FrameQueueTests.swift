import ReelCore
import Testing

@Suite struct FrameQueueTests {
    static func frames(_ queue: inout FrameQueue<Int, String>) -> [(Int, Bool)] {
        var out: [(Int, Bool)] = []
        while let item = queue.pop() { if case .frame(let frame, let forced) = item { out.append((frame, forced)) } }
        return out
    }

    @Test func dropOldestKeepsTheNewestAndPassesOnAKeyframeRequest() {
        var queue = FrameQueue<Int, String>(depth: 3, policy: .dropOldest)
        queue.push(0, forceKeyframe: true)
        queue.push(order: "flush")
        for frame in 1...4 { queue.push(frame, forceKeyframe: false) }
        #expect(queue.dropped == 2 && queue.waitingFrames == 3)
        let kept = Self.frames(&queue)
        #expect(kept.map(\.0) == [2, 3, 4])
        #expect(kept.map(\.1) == [true, false, false], "the dropped keyframe request moves to the next frame")
    }

    @Test func dropNewestKeepsTheQueueAndOrdersAreNeverDropped() {
        var queue = FrameQueue<Int, String>(depth: 2, policy: .dropNewest)
        let first = queue.push(0, forceKeyframe: false), second = queue.push(1, forceKeyframe: false)
        let third = queue.push(2, forceKeyframe: true)
        #expect(first && second && !third)
        queue.push(order: "flush")
        var orders = 0, frames: [(Int, Bool)] = []
        while let item = queue.pop() {
            switch item {
            case .order: orders += 1
            case .frame(let frame, let forced): frames.append((frame, forced))
            }
        }
        #expect(orders == 1 && frames.map(\.0) == [0, 1] && queue.dropped == 1)
        let fourth = queue.push(3, forceKeyframe: false)
        #expect(fourth)
        #expect(Self.frames(&queue).map(\.1) == [true], "the request of the dropped frame is kept")
    }

    @Test func propertiesAreValidated() {
        var properties = EncoderProperties()
        #expect(throws: EncoderError.self) { try properties.validate(codec: .h264, width: 0, height: 720) }
        #expect(throws: EncoderError.self) { try properties.validate(codec: .h264, width: 641, height: 360) }
        properties.averageBitRate = -1
        #expect(throws: EncoderError.self) { try properties.validate(codec: .h264, width: 640, height: 360) }
        properties.averageBitRate = 2_000_000
        properties.dataRateLimits = [.init(bytes: 100_000, seconds: 1)]
        #expect(throws: EncoderError.self, "a limit below the average") { try properties.validate(codec: .h264, width: 640, height: 360) }
        properties.dataRateLimits = [.init(bytes: 500_000, seconds: 1)]
        #expect(throws: Never.self) { try properties.validate(codec: .h264, width: 640, height: 360) }
        properties.profile = .high
        #expect(throws: EncoderError.self) { try properties.validate(codec: .h265, width: 640, height: 360) }
    }
}
