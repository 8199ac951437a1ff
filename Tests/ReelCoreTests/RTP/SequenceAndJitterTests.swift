import ReelCore
import Testing

@Suite struct RTPSequenceTrackerTests {
    @Test func probationThenWrapAwareNumbers() {
        var tracker = RTPSequenceTracker()
        #expect(tracker.update(65534) == .probation)
        #expect(tracker.update(65535) == .accepted(65536 + 65535))
        #expect(tracker.update(0) == .accepted(2 * 65536))
        #expect(tracker.update(1) == .accepted(2 * 65536 + 1))
        // Late across the wrap: numbered in the previous cycle.
        #expect(tracker.update(65530) == .accepted(65536 + 65530))
        #expect(tracker.update(2) == .accepted(2 * 65536 + 2))
    }

    @Test func aJumpIsBadUntilTheNextPacketConfirmsARestart() {
        var tracker = RTPSequenceTracker()
        _ = tracker.update(100)
        _ = tracker.update(101)
        #expect(tracker.update(30000) == .bad)
        #expect(tracker.update(102) == .accepted(65536 + 102))
        #expect(tracker.update(40000) == .bad)
        #expect(tracker.update(40001) == .reset(65536 + 40001))
        #expect(tracker.update(40002) == .accepted(65536 + 40002))
    }

    @Test func probationRestartsWhenPacketsAreNotInSequence() {
        var tracker = RTPSequenceTracker()
        #expect(tracker.update(10) == .probation)
        #expect(tracker.update(20) == .probation)
        #expect(tracker.update(21) == .accepted(65536 + 21))
    }

    @Test func timestampsGoBackForBFramesAndWrapForward() {
        var unwrapper = RTPTimestampUnwrapper()
        #expect(unwrapper.unwrap(UInt32.max - 3000) == Int64(UInt32.max) - 3000)
        #expect(unwrapper.unwrap(2999) == Int64(UInt32.max) + 3000)
        #expect(unwrapper.unwrap(UInt32.max - 100) == Int64(UInt32.max) - 100)
    }
}

@Suite struct JitterBufferTests {
    func buffer(latency: Double = 0.2, maxPackets: Int = 64) -> JitterBuffer {
        JitterBuffer(configuration: try! .init(latency: latency, maxPackets: maxPackets))
    }

    func sequences(_ outputs: [JitterBuffer.Output]) -> [String] {
        outputs.map {
            switch $0 {
            case .packet(let packet, _, _): "\(packet.sequenceNumber)"
            case .lost(let count): "lost \(count)"
            case .discontinuity: "restart"
            }
        }
    }

    /// Inserts the packets one at a time at time 0, popping after each, as a receiver does.
    func receivedOneByOne(_ numbers: [Int]) -> (buffer: JitterBuffer, out: [JitterBuffer.Output]) {
        var jitter = buffer()
        var out: [JitterBuffer.Output] = []
        for sequence in numbers {
            jitter.insert(TestPackets.rtp(sequence: UInt16(sequence)), arrival: 0)
            out += jitter.pop(now: 0)
        }
        return (jitter, out)
    }

    @Test func reorderedPacketsComeOutInOrderAtOnce() {
        var jitter = buffer()
        var out: [JitterBuffer.Output] = []
        for (time, sequence) in [(0.00, 10), (0.01, 11), (0.02, 13), (0.03, 12), (0.04, 14)] {
            jitter.insert(TestPackets.rtp(sequence: UInt16(sequence)), arrival: time)
            out += jitter.pop(now: time)
        }
        #expect(sequences(out) == ["10", "11", "12", "13", "14"])
        #expect(jitter.statistics.reordered == 1 && jitter.statistics.lost == 0 && jitter.statistics.received == 5)
    }

    @Test func aGapIsGivenUpAtTheDeadlineAndALatePacketIsDropped() {
        var jitter = buffer(latency: 0.1)
        jitter.insert(TestPackets.rtp(sequence: 1), arrival: 0)
        jitter.insert(TestPackets.rtp(sequence: 2), arrival: 0)
        #expect(sequences(jitter.pop(now: 0)) == ["1", "2"])
        jitter.insert(TestPackets.rtp(sequence: 5), arrival: 1.0)
        #expect(jitter.pop(now: 1.05).isEmpty)
        #expect(jitter.nextDeadline == 1.1)
        #expect(sequences(jitter.pop(now: 1.1)) == ["lost 2", "5"])
        jitter.insert(TestPackets.rtp(sequence: 3), arrival: 1.2)
        jitter.insert(TestPackets.rtp(sequence: 5), arrival: 1.2)
        #expect(jitter.pop(now: 1.2).isEmpty)
        let statistics = jitter.statistics
        #expect(statistics.late == 1 && statistics.duplicate == 1 && statistics.skipped == 2)
        #expect(statistics.expected == 5 && statistics.received == 4 && statistics.lost == 1)
    }

    @Test func zeroLatencyNeverWaits() {
        var jitter = buffer(latency: 0)
        jitter.insert(TestPackets.rtp(sequence: 1), arrival: 0)
        jitter.insert(TestPackets.rtp(sequence: 2), arrival: 0)
        jitter.insert(TestPackets.rtp(sequence: 4), arrival: 0)
        #expect(sequences(jitter.pop(now: 0)) == ["1", "2", "lost 1", "4"])
    }

    @Test func theCountBoundGivesUpGapsEarly() {
        var jitter = buffer(latency: 2, maxPackets: 4)
        jitter.insert(TestPackets.rtp(sequence: 1), arrival: 0)
        jitter.insert(TestPackets.rtp(sequence: 2), arrival: 0)
        for sequence in 4...8 { jitter.insert(TestPackets.rtp(sequence: UInt16(sequence)), arrival: 0) }
        #expect(sequences(jitter.pop(now: 0)) == ["1", "2", "lost 1", "4", "5", "6", "7", "8"])
    }

    @Test func aJumpAroundTheWholeRingBetweenPopsGivesUpTheOlderPacket() {
        var jitter = buffer(latency: 2, maxPackets: 4)   // a ring of 8 slots
        var out: [JitterBuffer.Output] = []
        for sequence in [1, 2] { jitter.insert(TestPackets.rtp(sequence: UInt16(sequence)), arrival: 0) }
        out += jitter.pop(now: 0)
        jitter.insert(TestPackets.rtp(sequence: 4), arrival: 0)
        jitter.insert(TestPackets.rtp(sequence: 12), arrival: 0)   // the slot 4 is in
        out += jitter.flush()
        #expect(sequences(out) == ["1", "2", "lost 9", "12"])
        #expect(jitter.statistics.skipped == 9 && jitter.nextDeadline == nil)
    }

    @Test func aNewSSRCRestartsAfterItsOwnProbation() {
        var jitter = buffer()
        var out: [JitterBuffer.Output] = []
        for sequence in 100...102 { jitter.insert(TestPackets.rtp(sequence: UInt16(sequence)), arrival: 0) }
        out += jitter.pop(now: 0)
        jitter.insert(TestPackets.rtp(sequence: 7, ssrc: 99), arrival: 0)
        #expect(jitter.ssrc == 0x1234_5678, "one stray packet does not take over")
        jitter.insert(TestPackets.rtp(sequence: 8, ssrc: 99), arrival: 0)
        out += jitter.pop(now: 0)
        #expect(sequences(out) == ["100", "101", "102", "restart", "7", "8"])
        #expect(jitter.ssrc == 99 && jitter.statistics.resets == 1 && jitter.statistics.lost == 0)
    }

    @Test func aSequenceResetFlushesAndRestarts() {
        let (jitter, out) = receivedOneByOne([1, 2, 3, 20000, 20001, 20002])
        #expect(sequences(out) == ["1", "2", "3", "restart", "20000", "20001", "20002"], "the jump's first packet is kept")
        #expect(jitter.statistics.invalid == 0 && jitter.statistics.resets == 1 && jitter.statistics.lost == 0)
    }

    @Test func aStrayJumpIsInvalidAndDropped() {
        let (jitter, out) = receivedOneByOne([1, 2, 3, 20000, 4, 5])
        #expect(sequences(out) == ["1", "2", "3", "4", "5"])
        #expect(jitter.statistics.invalid == 1 && jitter.statistics.resets == 0 && jitter.statistics.lost == 0)
    }

    @Test func interarrivalJitterFollowsRFC3550() {
        // 90 kHz timestamps every 3000 ticks (1/30 s); arrivals alternate 10 ms early and late.
        var jitter = buffer()
        var expected = 0.0
        var previousTransit: Double?
        for index in 0..<50 {
            let arrival = Double(index) / 30 + (index % 2 == 0 ? 0.01 : -0.01) + 1
            jitter.insert(TestPackets.rtp(sequence: UInt16(index), timestamp: UInt32(index * 3000)), arrival: arrival)
            let transit = (arrival * 90000).rounded() - Double(index * 3000)
            if let previousTransit { expected += (abs(transit - previousTransit) - expected) / 16 }
            previousTransit = transit
        }
        #expect(abs(jitter.statistics.jitter - expected) < 1e-6)
        #expect(jitter.statistics.jitter > 1500, "about 20 ms × 90 kHz after many packets")
    }

    @Test func theLatencyIsBounded() {
        #expect(throws: RTPError.self) { try JitterBuffer.Configuration(latency: 2.5) }
        #expect(throws: RTPError.self) { try JitterBuffer.Configuration(latency: -1) }
    }
}

@Suite struct DecodeTimestampTests {
    @Test func decodeTimesIncreaseAndNeverPassPresentation() {
        // x264's B-pyramid order: I0 P4 B2 b1 b3 P8 B6 b5 b7.
        let pts: [Int64] = [0, 4, 2, 1, 3, 8, 6, 5, 7].map { $0 * 3000 }
        var generator = DecodeTimestampGenerator(delay: 2)
        let dts = pts.map { generator.decodeTime(forPresentationTime: $0) }
        #expect(dts == [-2, -1, 0, 3000, 6000, 9000, 12000, 15000, 18000])
        #expect(zip(dts, pts).allSatisfy { $0 <= $1 })
    }
}
