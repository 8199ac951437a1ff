import Foundation
import Testing
import ReelCore

@Suite struct SegmentTrackerTests {
    static let noon = Date(timeIntervalSince1970: 1_764_331_200)   // 2025-11-28T12:00:00Z

    /// 25 pictures a second with a keyframe a second, in segments of 10 s: nothing before the
    /// first keyframe, a new segment at the first keyframe 10 s on, each closing into its
    /// entry (first and last picture, keyframes from its start).
    @Test func segmentsStartAtKeyframesAndCloseIntoTheirEntries() {
        var tracker = SegmentTracker(segmentSeconds: 10)
        var actions: [(Int, SegmentTracker.Action)] = []
        for frame in 13..<(13 + 25 * 25) {
            let time = Double(frame) / 25
            let action = tracker.take(startsPictures: true, isKeyframe: frame % 25 == 0, time: time,
                                      received: Self.noon.addingTimeInterval(time))
            if action != .write { actions.append((frame, action)) }
        }
        // Frames 13–24: no keyframe yet.
        #expect(actions.prefix(12).allSatisfy { $0.1 == .skip } && actions.count == 12 + 3)
        let starts = actions.dropFirst(12)
        #expect(starts.map(\.0) == [25, 275, 525])
        guard case .start(let first, nil) = starts.first!.1 else { Issue.record("\(starts)"); return }
        #expect(first == "2025-11-28T12-00-01Z.mp4")
        guard case .start(let second, let closed?) = Array(starts)[1].1 else { Issue.record("\(starts)"); return }
        #expect(second == "2025-11-28T12-00-11Z.mp4")
        #expect(closed.file == first && closed.first == Self.noon.addingTimeInterval(1))
        // A Date is a Double of seconds since 2001: within a microsecond.
        #expect(abs(closed.last.timeIntervalSince(closed.first) - (274.0 - 25) / 25) < 1e-6)
        #expect(closed.keyframes == Array(stride(from: 0.0, through: 9, by: 1)))
        let last = tracker.close()
        #expect(last?.file == "2025-11-28T12-00-21Z.mp4" && last?.keyframes == [0, 1, 2, 3, 4] && tracker.current == nil)
        #expect(tracker.close() == nil)
    }

    /// Sound before the first picture is left out; with no video, any packet starts.
    @Test func soundWaitsForThePictureUnlessThereIsNone() {
        var tracker = SegmentTracker(segmentSeconds: 5)
        #expect(tracker.take(startsPictures: false, isKeyframe: true, time: 0, received: Self.noon) == .skip)
        var audioOnly = SegmentTracker(segmentSeconds: 5)
        guard case .start = audioOnly.take(startsPictures: true, isKeyframe: true, time: 0, received: Self.noon) else { Issue.record("no start"); return }
        #expect(audioOnly.take(startsPictures: false, isKeyframe: false, time: 0.02, received: Self.noon) == .write)
    }

    /// A segment that starts in the second of one before it (a reconnect) takes the next
    /// second's name rather than writing over it.
    @Test func aNameTakenMovesOnASecond() {
        var tracker = SegmentTracker(segmentSeconds: 5)
        let taken: Set = ["2025-11-28T12-00-00Z.mp4"]
        guard case .start(let name, _) = tracker.take(startsPictures: true, isKeyframe: true, time: 0, received: Self.noon.addingTimeInterval(0.4),
                                                       taken: { taken.contains($0) }) else { Issue.record("no start"); return }
        #expect(name == "2025-11-28T12-00-01Z.mp4")
    }
}
