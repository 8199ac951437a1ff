import Foundation
import Testing
@testable import ReelCore

/// A live stream of 25 pictures a second (stream 0, a keyframe every 12: 0.48 s) and sound
/// in 20 ms packets (stream 1), in milliseconds, each packet's bytes naming it.
private struct SyntheticLive {
    var packets: [Packet] = []

    init(seconds: Double) {
        var pictures = 0, sounds = 0
        while Double(pictures) * 0.04 < seconds {
            packets.append(Self.packet(stream: 0, at: pictures * 40, duration: 40, keyframe: pictures % 12 == 0))
            while sounds * 20 < (pictures + 1) * 40 {
                packets.append(Self.packet(stream: 1, at: sounds * 20, duration: 20, keyframe: true))
                sounds += 1
            }
            pictures += 1
        }
    }

    static func packet(stream: Int, at milliseconds: Int, duration: Int64, keyframe: Bool) -> Packet {
        let text = Array("\(stream)@\(milliseconds)".utf8) + Array(repeating: UInt8(milliseconds % 251), count: stream == 0 ? 900 : 100)
        let storage = HeapStorage(byteCount: text.count)
        storage.bytes.copyBytes(from: text)
        return Packet(streamIndex: stream, pts: Int64(milliseconds), dts: Int64(milliseconds), duration: duration, timeBase: Rational(1, 1000),
                      isKeyframe: keyframe, data: UnsafeRawBufferPointer(storage.bytes), owner: storage)
    }
}

private func name(_ packet: Packet) -> String {
    String(decoding: packet.data.prefix { $0 != UInt8(ascii: "@") && $0 < 128 }, as: UTF8.self) + "@\(packet.pts ?? -1)"
}

private func temporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("reel-timeshift-test-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite struct TimeshiftIndexTests {
    private func index(window: Double, seconds: Double, maximumBytes: Int = .max) -> (TimeshiftIndex, dropped: [Int]) {
        var index = TimeshiftIndex(window: window, videoStream: 0, maximumBytes: maximumBytes)
        var dropped: [Int] = []
        for packet in SyntheticLive(seconds: seconds).packets {
            index.append(packet, at: index.placement(of: packet))
            dropped += index.trim()
        }
        return (index, dropped)
    }

    @Test func aSegmentStartsAtTheFirstKeyframeAfterTwoSeconds() {
        let (index, dropped) = index(window: 60, seconds: 10)
        #expect(dropped.isEmpty)
        // Keyframes every 0.48 s: the first past 2 s after 0 is at 2.40, then 4.80, 7.20, 9.60.
        #expect(index.segments.map(\.start) == [0, 2.4, 4.8, 7.2, 9.6])
        #expect(index.segments.map(\.number) == [0, 1, 2, 3, 4])
        for segment in index.segments.dropFirst() {
            #expect(segment.entries.first?.streamIndex == 0 && segment.entries.first?.isKeyframe == true)
        }
        // Offsets run on within each file.
        for segment in index.segments {
            #expect(segment.entries.first?.offset == 0)
            #expect(zip(segment.entries, segment.entries.dropFirst()).allSatisfy { $1.offset == $0.offset + $0.size })
        }
    }

    @Test func theWindowIsKeptWholeAndNoMoreThanOneSegmentBeyond() throws {
        let (index, dropped) = index(window: 5, seconds: 30)
        let range = try #require(index.range)
        #expect(abs(range.upperBound - 30) < 0.05)
        // The window's start (25 s) can be gone back to, and what is kept reaches back at
        // most a segment (2.4 s here) before it.
        #expect(range.lowerBound <= range.upperBound - 5)
        #expect(range.lowerBound > range.upperBound - 5 - 2.5)
        #expect(dropped == Array(0..<dropped.count) && index.segments.first?.number == dropped.count)
        #expect(index.bytes == index.segments.reduce(0) { $0 + $1.bytes })
    }

    @Test func theByteLimitDropsTheOldestWhateverTheWindow() {
        let (whole, _) = index(window: 600, seconds: 30)
        let limit = whole.bytes / 3
        let (index, dropped) = index(window: 600, seconds: 30, maximumBytes: limit)
        #expect(!dropped.isEmpty)
        #expect(index.bytes <= limit)
        #expect(index.segments.count >= 2)
    }

    @Test func goingBackStartsAtTheKeyframeAtOrBefore() throws {
        let (index, _) = index(window: 10, seconds: 30)
        func start(_ time: Double) throws -> Double? {
            let position = try #require(index.position(atOrBefore: time))
            return index.entry(from: position)?.entry.start
        }
        // Keyframes every 0.48 s: 25.0 lies after 24.96.
        #expect(try start(25.0) == 24.96)
        #expect(try start(24.96) == 24.96)
        // Older than what is kept: the oldest keyframe; past the newest media: the newest keyframe.
        #expect(try start(0) == index.range?.lowerBound)
        // Picture 744 (29.76 s) is a keyframe in the segment that began at 28.8 s.
        #expect(try start(1_000) == 29.76)
    }

    @Test func aCursorInADroppedSegmentGoesOnFromTheOldestKept() throws {
        let (index, _) = index(window: 5, seconds: 30)
        let found = try #require(index.entry(from: TimeshiftIndex.Position(segment: 0, entry: 7)))
        #expect(found.position == TimeshiftIndex.Position(segment: try #require(index.segments.first?.number), entry: 0))
        // The end of a segment goes on to the next one's first packet.
        let first = try #require(index.segments.first)
        let next = try #require(index.entry(from: TimeshiftIndex.Position(segment: first.number, entry: first.entries.count)))
        #expect(next.position == TimeshiftIndex.Position(segment: first.number + 1, entry: 0))
        // Past the newest: nothing yet.
        let newest = try #require(index.segments.last)
        #expect(index.entry(from: TimeshiftIndex.Position(segment: newest.number, entry: newest.entries.count)) == nil)
    }

    @Test func aSenderThatStartsItsTimestampsOverIsAJump() {
        var index = TimeshiftIndex(window: 60, videoStream: 0, maximumBytes: .max)
        for packet in SyntheticLive(seconds: 5).packets { index.append(packet, at: index.placement(of: packet)) }
        #expect(index.jump(of: SyntheticLive.packet(stream: 0, at: 5_000, duration: 40, keyframe: false)) == nil)
        #expect(index.jump(of: SyntheticLive.packet(stream: 0, at: 0, duration: 40, keyframe: true))?.to == 0)
        #expect(index.jump(of: SyntheticLive.packet(stream: 1, at: 20_000, duration: 20, keyframe: true)) != nil)
    }

    @Test func theLiveEdgeIsWhereEveryStreamPlayedHasMedia() {
        var index = TimeshiftIndex(window: 60, videoStream: 0, maximumBytes: .max)
        let packets = [SyntheticLive.packet(stream: 0, at: 0, duration: 40, keyframe: true), SyntheticLive.packet(stream: 0, at: 40, duration: 40, keyframe: false),
                       SyntheticLive.packet(stream: 1, at: 0, duration: 20, keyframe: true)]
        for packet in packets { index.append(packet, at: index.placement(of: packet)) }
        #expect(index.liveEdge(of: [0, 1]) == 0.02)
        #expect(index.liveEdge(of: [0]) == 0.08)
        #expect(index.liveEdge(of: [0, 2]) == nil)
    }
}

@Suite struct TimeshiftRingTests {
    @Test func everyPacketComesBackAsItWasKept() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ring = TimeshiftRing(url: "rtmp://camera", window: 60, videoStream: 0, directory: directory, maximumBytes: .max)
        let live = SyntheticLive(seconds: 10).packets
        for packet in live { try ring.keep(packet) }
        ring.finish(nil)
        var read: [Packet] = []
        while let packet = try ring.read() { read.append(packet) }
        #expect(read.count == live.count)
        for (kept, back) in zip(live, read) {
            #expect(Array(kept.data) == Array(back.data))
            #expect(kept.streamIndex == back.streamIndex && kept.pts == back.pts && kept.dts == back.dts && kept.duration == back.duration)
            #expect(kept.isKeyframe == back.isKeyframe && kept.timeBase == back.timeBase)
        }
        // The files were unlinked as they were made: nothing is left to clean up.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test func goingBackReadsFromTheKeyframeAtOrBeforeAndOnInOrder() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ring = TimeshiftRing(url: "rtmp://camera", window: 60, videoStream: 0, directory: directory, maximumBytes: .max)
        for packet in SyntheticLive(seconds: 10).packets { try ring.keep(packet) }
        ring.seek(to: 7.0)
        let first = try #require(try ring.read())
        #expect(name(first) == "0@6720" && first.isKeyframe)
        let second = try #require(try ring.read())
        #expect(second.pts.map { $0 >= 6_700 } == true)
        ring.seek(to: 2.0)
        #expect(try ring.read().map(name) == "0@1920")
    }

    @Test func aReadAtTheNewestWaitsForTheWriterAndEndsAsTheInputDoes() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ring = TimeshiftRing(url: "rtmp://camera", window: 60, videoStream: 0, directory: directory, maximumBytes: .max)
        let packets = SyntheticLive(seconds: 1).packets
        let reader = Task.detached { () throws -> [String] in
            var names: [String] = []
            while let packet = try ring.read() { names.append(name(packet)) }
            return names
        }
        for packet in packets { try ring.keep(packet) }
        ring.finish(nil)
        #expect(try await reader.value == packets.map(name))

        let failing = TimeshiftRing(url: "rtmp://camera", window: 60, videoStream: 0, directory: directory, maximumBytes: .max)
        try failing.keep(packets[0])
        failing.finish(InputError(.timedOut(seconds: 15), operation: .read, url: "rtmp://camera"))
        // What was kept is played before the failure is heard.
        #expect(try failing.read().map(name) == name(packets[0]))
        #expect(throws: InputError(.timedOut(seconds: 15), operation: .read, url: "rtmp://camera")) { try failing.read() }
    }

    @Test func aCancelWakesAWaitingRead() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ring = TimeshiftRing(url: "rtmp://camera", window: 60, videoStream: 0, directory: directory, maximumBytes: .max)
        let reader = Task.detached { () -> InputError? in
            do {
                _ = try ring.read()
                return nil
            } catch {
                return error as? InputError
            }
        }
        ring.cancel()
        #expect(await reader.value?.reason == .cancelled)
    }

    @Test func whatTheWindowDropsLeavesTheDiskAndAReaderBehindGoesOnFromTheOldest() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ring = TimeshiftRing(url: "rtmp://camera", window: 5, videoStream: 0, directory: directory, maximumBytes: .max)
        let live = SyntheticLive(seconds: 60).packets
        var mostOnDisk = 0
        for packet in live {
            try ring.keep(packet)
            mostOnDisk = max(mostOnDisk, ring.bytesOnDisk)
        }
        // The system's count of the files' blocks: what 5 s and one segment hold (7.4 s of
        // the 60), and a block per file (4 of them at most) for rounding.
        let perSecond = Double(live.reduce(0) { $0 + $1.data.count }) / 60
        #expect(Double(mostOnDisk) <= perSecond * 7.5 + 4 * 4096, "\(mostOnDisk) bytes on disk, \(perSecond) a second")
        #expect(ring.bytesKept <= Int(perSecond * 7.5))
        // The reader never moved: it goes on from the oldest keyframe kept.
        let first = try #require(try ring.read())
        #expect(first.isKeyframe && first.presentationTime?.seconds == ring.range?.lowerBound)
    }
}

@Suite struct DurationTextTests {
    @Test func unitsFromTheLargestDownAndBareSeconds() {
        #expect(DurationText.seconds("600") == 600)
        #expect(DurationText.seconds("90s") == 90)
        #expect(DurationText.seconds("10m") == 600)
        #expect(DurationText.seconds("1h30m") == 5_400)
        #expect(DurationText.seconds("2.5m") == 150)
        #expect(DurationText.seconds(" 1H ") == 3_600)
    }

    @Test func anythingElseIsNoDuration() {
        for text in ["", "m", "10x", "1h30", "30m1h", "1m1m", "-5m", "1.2.3s", "ten minutes"] {
            #expect(DurationText.seconds(text) == nil, "\(text)")
        }
    }
}
