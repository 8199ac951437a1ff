import Testing
import ReelCore

@Suite struct OverlaySoundTests {
    /// A sound whose sample `i` is `i + 1` (both channels): what is added says which sample it was.
    static func countingSound(frames: Int, rate: Int = 100) -> OverlaySound {
        OverlaySound(format: AudioDeviceFormat(sampleRate: rate, channels: 2), samples: (0..<frames).flatMap { [Float($0 + 1), Float($0 + 1)] })
    }

    static func mixed(_ sound: OverlaySound, frames: Int, from position: Double, step: Double, entry: OverlaySchedule.Entry) -> [Float] {
        var output = [Float](repeating: 0, count: frames * 2)
        output.withUnsafeMutableBufferPointer { sound.mix(into: $0, frames: frames, from: position, step: step, playing: entry) }
        #expect(zip(output.dropFirst(), output).enumerated().allSatisfy { $0.offset % 2 == 1 || $0.element.0 == $0.element.1 }, "both channels alike")
        return stride(from: 0, to: output.count, by: 2).map { output[$0] }
    }

    /// At 100 samples a second, an animation of 5 frames at 25 a second (0.2 s: 20 samples a
    /// loop) from 1 s, two loops: silent before 1 s, each loop from the sound's start (its
    /// 30 samples cut at 20), silent after 1.4 s.
    @Test func eachLoopPlaysTheSoundFromItsStartOnThePlayersTime() {
        let entry = OverlaySchedule.Entry(id: 1, start: 1.0, framesPerSecond: 25, frameCount: 5, loops: 2)
        let heard = Self.mixed(Self.countingSound(frames: 30), frames: 60, from: 0.95, step: 0.01, entry: entry)
        #expect(Array(heard[0..<5]) == Array(repeating: 0, count: 5))
        #expect(Array(heard[5..<25]) == (1...20).map(Float.init))
        #expect(Array(heard[25..<45]) == (1...20).map(Float.init))
        #expect(Array(heard[45...]) == Array(repeating: 0, count: 15))
    }

    /// What is there already is added to; at 2× every other sample is heard; a sound shorter
    /// than a loop leaves the rest of the loop silent; loops 0 plays on.
    @Test func itAddsFollowsTheSpeedAndEndsWhereTheSoundEnds() {
        let entry = OverlaySchedule.Entry(id: 1, start: 0, framesPerSecond: 25, frameCount: 5, loops: 0)
        let sound = Self.countingSound(frames: 8)
        var output = [Float](repeating: 0.5, count: 2 * 14)
        output.withUnsafeMutableBufferPointer { sound.mix(into: $0, frames: 14, from: 0, step: 0.02, playing: entry) }
        let heard = stride(from: 0, to: output.count, by: 2).map { output[$0] - 0.5 }
        #expect(heard == [1, 3, 5, 7, 0, 0, 0, 0, 0, 0, 1, 3, 5, 7])
    }

    /// A buffer shorter than the frames asked for is left alone rather than overrun.
    @Test func aShortBufferIsNotOverrun() {
        let entry = OverlaySchedule.Entry(id: 1, start: 0, framesPerSecond: 25, frameCount: 5)
        var output = [Float](repeating: 0, count: 3)
        output.withUnsafeMutableBufferPointer { Self.countingSound(frames: 8).mix(into: $0, frames: 2, from: 0, step: 0.01, playing: entry) }
        #expect(output == [0, 0, 0])
    }
}
