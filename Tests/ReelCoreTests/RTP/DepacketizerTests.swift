import ReelCore
import Testing

@Suite struct DepacketizerTests {
    static let h264SPS: [UInt8] = [0x67, 0x42, 0xC0, 0x1F, 0xDA, 0x01, 0x40, 0x16, 0xE8]
    static let h264PPS: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
    static func slice(_ header: UInt8, size: Int, first: Bool = true) -> [UInt8] {
        [header, first ? 0x88 : 0x08] + (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    /// Runs packets through a jitter buffer and the depacketizer, as the receiver does.
    static func receive(_ packets: [RTPPacket], description: SessionDescription, options: RTPVideoDepacketizer.Options = .init()) throws -> [AccessUnit] {
        var jitter = JitterBuffer(configuration: try .init(latency: 0))
        var depacketizer = try RTPVideoDepacketizer(description: description, options: options)
        var units: [AccessUnit] = []
        for packet in packets {
            jitter.insert(packet, arrival: 0)
            for output in jitter.pop(now: 0) { depacketizer.push(output, into: &units) }
        }
        depacketizer.finish(into: &units)
        return units
    }

    static let h264Description = SessionDescription(codec: .h264, address: "127.0.0.1", port: 5004, parameterSets: [h264SPS, h264PPS])

    @Test func accessUnitsComeBackWithParameterSetsBeforeKeyframes() throws {
        let idr = Self.slice(0x65, size: 3000), p1 = Self.slice(0x41, size: 500), p2 = Self.slice(0x41, size: 40)
        var packets = TestPackets.packets(units: [idr], codec: .h264, sequence: 65530, timestamp: 0)
        packets += TestPackets.packets(units: [p1], codec: .h264, sequence: 65530 &+ UInt16(packets.count), timestamp: 3000)
        packets += TestPackets.packets(units: [[0x06, 5, 1, 0, 0x80], p2], codec: .h264, sequence: 65530 &+ UInt16(packets.count), timestamp: 6000)
        let units = try Self.receive(packets, description: Self.h264Description)
        #expect(units.map(\.units) == [[Self.h264SPS, Self.h264PPS, idr], [p1], [[0x06, 5, 1, 0, 0x80], p2]])
        #expect(units.map(\.timestamp) == [0, 3000, 6000])
        #expect(units.map(\.isKeyframe) == [true, false, false])
        #expect(!units.contains { $0.isCorrupted })
        #expect(units[0].annexB.prefix(5) == [0, 0, 0, 1, 0x67])
        #expect(units[1].lengthPrefixed.prefix(5) == [0, 0, 1, 0xF6, 0x41])
    }

    @Test func withoutMarkersPicturesAreSplitByFirstSliceAndByTimestamp() throws {
        let a = Self.slice(0x65, size: 10), b = Self.slice(0x65, size: 10, first: false), c = Self.slice(0x41, size: 10)
        // Three pictures at the same timestamp would be odd; two with the same, one later.
        let packets = [
            TestPackets.rtp(sequence: 1, timestamp: 0, payload: a), TestPackets.rtp(sequence: 2, timestamp: 0, payload: b),
            TestPackets.rtp(sequence: 3, timestamp: 0, payload: c), TestPackets.rtp(sequence: 4, timestamp: 90, payload: c),
        ]
        let units = try Self.receive(packets, description: Self.h264Description)
        #expect(units.map { $0.units.count } == [4, 1, 1])
        #expect(units.map(\.timestamp) == [0, 0, 90])
    }

    @Test func aLostFragmentDamagesItsPictureAndWaitingSkipsToTheNextKeyframe() throws {
        let idr = Self.slice(0x65, size: 1000), p = Self.slice(0x41, size: 1000)
        var packets: [RTPPacket] = []
        for (index, unit) in [idr, p, p, idr, p].enumerated() {
            packets += TestPackets.packets(units: [unit], codec: .h264, sequence: UInt16(packets.count), timestamp: UInt32(index * 3000))
        }
        let perPicture = packets.count / 5
        var damaged = packets
        damaged.remove(at: perPicture + 2)   // a middle fragment of the first P picture
        let all = try Self.receive(damaged, description: Self.h264Description)
        // Nothing of the damaged picture survives; the one after it is marked instead.
        #expect(all.map(\.timestamp) == [0, 6000, 9000, 12000])
        #expect(all.map(\.isCorrupted) == [false, true, false, false])
        let clean = try Self.receive(damaged, description: Self.h264Description, options: .init(waitForKeyframe: true))
        #expect(clean.map(\.timestamp) == [0, 9000, 12000])
        #expect(!clean.contains { $0.isCorrupted })
    }

    @Test func theFirstPictureAfterASenderRestartSaysSo() throws {
        let idr = Self.slice(0x65, size: 100), p = Self.slice(0x41, size: 100)
        var packets: [RTPPacket] = []
        for (index, unit) in [idr, p, p].enumerated() {
            packets += TestPackets.packets(units: [unit], codec: .h264, sequence: UInt16(100 + index), timestamp: UInt32(index * 3000))
        }
        // The sender restarts with another SSRC, numbering and clock.
        for (index, unit) in [p, idr, p].enumerated() {
            packets += TestPackets.packets(units: [unit], codec: .h264, sequence: UInt16(7000 + index), timestamp: UInt32(500_000 + index * 3000), mtu: 200, ssrc: 99)
        }
        let units = try Self.receive(packets, description: Self.h264Description, options: .init(waitForKeyframe: true))
        #expect(units.map(\.timestamp) == [0, 3000, 6000, 503_000, 506_000])
        #expect(units.map(\.followsRestart) == [false, false, false, true, false])
    }

    @Test func interleavedModePacketsAndBadFragmentsAreRejected() {
        var depacketizer = H264Depacketizer(maxUnitSize: 100)
        var units: [DepacketizedUnit] = []
        for payload: [UInt8] in [[0x19, 0, 0], [0x1A, 0, 0], [0x1B, 0, 0], [0x1D, 0x80, 0], [0x00], [0x9C, 0x85, 1], [0x1C, 0xC5, 1], []] {
            #expect(throws: RTPError.self) { try depacketizer.depacketize(payload[...], sequence: 0, into: &units) }
        }
        #expect(throws: RTPError.self) { try depacketizer.depacketize([0x18, 0, 9, 0x41][...], sequence: 0, into: &units) }
        // The size cap.
        try? depacketizer.depacketize([0x1C, 0x85] + [UInt8](repeating: 1, count: 60), sequence: 1, into: &units)
        #expect(throws: RTPError.self) { try depacketizer.depacketize([0x1C, 0x05] + [UInt8](repeating: 1, count: 60), sequence: 2, into: &units) }
        #expect(units.isEmpty)
    }

    @Test func h265AggregationFragmentsPACIAndDecodingOrder() throws {
        var depacketizer = H265Depacketizer(maxDonDiff: 2)
        var units: [DepacketizedUnit] = []
        // AP with DONL 10, then DOND 0 → DON 11.
        try depacketizer.depacketize([0x60, 0x01, 0, 10, 0, 3, 0x40, 0x01, 0xAA, 0, 0, 3, 0x42, 0x01, 0xBB][...], sequence: 0, into: &units)
        // FU of an IDR_W_RADL (19) with DONL 13, start then end.
        try depacketizer.depacketize([0x62, 0x01, 0x93, 0, 13, 0xAF, 0x01][...], sequence: 1, into: &units)
        try depacketizer.depacketize([0x62, 0x01, 0x53, 0x02][...], sequence: 2, into: &units)
        // PACI (type 50) carrying a single NAL unit of type 1 with a 1-byte header extension, DONL 12.
        try depacketizer.depacketize([0x64, 0x01, 0x02, 0x10, 0xEE, 0, 12, 0x40, 0x55][...], sequence: 3, into: &units)
        #expect(units.map(\.bytes) == [[0x40, 0x01, 0xAA], [0x42, 0x01, 0xBB], [0x26, 0x01, 0xAF, 0x01, 0x02], [0x02, 0x01, 0x40, 0x55]])
        #expect(units.map(\.decodingOrder) == [10, 11, 13, 12])
        // The assembler puts them in decoding order.
        var assembler = AccessUnitAssembler(codec: .h265)
        var out: [AccessUnit] = []
        assembler.add(units, timestamp: 0, marker: true, into: &out)
        #expect(out.count == 1 && out[0].units.map { VideoCodec.h265.nalType($0[0]) } == [32, 33, 1, 19])
        #expect(throws: RTPError.self) { try depacketizer.depacketize([0x66, 0x01, 0, 0][...], sequence: 4, into: &units) }
        #expect(throws: RTPError.self) { try depacketizer.depacketize([0x64, 0x01, 0x64, 0x00, 0, 0][...], sequence: 4, into: &units) }
    }

    @Test func parameterSetsRepeatedBetweenSlicesAndMarkersOnEveryUnitKeepOnePicture() throws {
        // GStreamer's rtph264pay with config-interval=-1 on slice-aligned input: SPS/PPS before
        // every IDR slice, a marker after each slice.
        let sps = Self.h264SPS, pps = Self.h264PPS
        let first = Self.slice(0x65, size: 30), second = Self.slice(0x65, size: 30, first: false), next = Self.slice(0x41, size: 10)
        let payloads: [([UInt8], Bool, UInt32)] = [(sps, false, 0), (pps, false, 0), (first, true, 0), (sps, false, 0), (pps, false, 0), (second, true, 0), (next, true, 3000)]
        let packets = payloads.enumerated().map { TestPackets.rtp(sequence: UInt16($0.offset), timestamp: $0.element.2, marker: $0.element.1, payload: $0.element.0) }
        let units = try Self.receive(packets, description: Self.h264Description)
        #expect(units.flatMap(\.units) == [sps, pps, first, second, next])
        #expect(units.filter(\.isKeyframe).count == 1)
    }

    @Test func h265LeadingPicturesAfterAResumingCRAAreSkipped() {
        var assembler = AccessUnitAssembler(codec: .h265, waitForKeyframe: true)
        var out: [AccessUnit] = []
        func picture(_ type: UInt8, _ timestamp: Int64) {
            assembler.add([DepacketizedUnit(bytes: [type << 1, 1, 0x80, 1])], timestamp: timestamp, marker: true, into: &out)
        }
        picture(21, 0)      // CRA
        picture(8, 1)       // RASL: references before the CRA
        picture(7, 2)       // RADL: decodable
        picture(1, 3)       // trailing
        picture(8, 4)       // a RASL of a later CRA would be kept: not after the resumption
        #expect(out.map(\.timestamp) == [0, 2, 3, 4])
    }
}
