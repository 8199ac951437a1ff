import ReelCore
import Testing

@Suite struct RTPPayloaderTests {
    /// Rebuilds NAL units with Reel's receiving side.
    static func depacketize(_ payloads: [[UInt8]], codec: VideoCodec) throws -> [[UInt8]] {
        var depacketizer: any RTPPayloadDepacketizer = codec == .h264 ? H264Depacketizer() : H265Depacketizer()
        var units: [DepacketizedUnit] = []
        for (sequence, payload) in payloads.enumerated() { try depacketizer.depacketize(payload[...], sequence: Int64(sequence), into: &units) }
        return units.map(\.bytes)
    }

    static func unit(_ header: [UInt8], size: Int) -> [UInt8] { header + (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) } }

    @Test(arguments: VideoCodec.allCases)
    func smallUnitsAggregateLargeOnesFragmentAndAllComeBack(_ codec: VideoCodec) throws {
        let headers: [[UInt8]] = codec == .h264 ? [[0x67], [0x68], [0x06], [0x65]] : [[0x40, 1], [0x42, 1], [0x44, 1], [0x26, 1]]
        let units = [Self.unit(headers[0], size: 20), Self.unit(headers[1], size: 4), Self.unit(headers[2], size: 30), Self.unit(headers[3], size: 5000)]
        let payloader = try RTPPayloader(codec: codec, mtu: 1200)
        let payloads = payloader.payloads(for: units.map { $0[...] })
        #expect(payloads.allSatisfy { $0.count <= 1200 - 12 })
        #expect(codec.nalType(payloads[0][0]) == (codec == .h264 ? 24 : 48), "the three small units travel together")
        #expect(payloads.count == 1 + Int((5000.0 / Double(1188 - codec.nalHeaderSize - 1)).rounded(.up)))
        #expect(try Self.depacketize(payloads, codec: codec) == units)
    }

    @Test func aSingleSmallUnitIsSentAsItIs() throws {
        let payloads = try RTPPayloader(codec: .h264, mtu: 1400).payloads(for: [[UInt8]([0x41, 1, 2, 3])[...]])
        #expect(payloads == [[0x41, 1, 2, 3]])
        #expect(throws: BitstreamError.self) { try RTPPayloader(codec: .h264, mtu: 20) }
    }

    @Test func theHeaderIsRFC3550s() {
        let header = RTPHeader(marker: true, payloadType: 96, sequenceNumber: 0xFFFE, timestamp: 0x0102_0304, ssrc: 0xA0B0_C0D0)
        #expect(header.bytes == [0x80, 0xE0, 0xFF, 0xFE, 1, 2, 3, 4, 0xA0, 0xB0, 0xC0, 0xD0])
    }

    @Test func theSDPNamesTheParameterSets() {
        let description = SessionDescription(codec: .h264, address: "::1", port: 5004, parameterSets: [[0x67, 0x42, 0xC0, 0x1F], [0x68, 1]])
        #expect(description.text.contains("c=IN IP6 ::1"))
        #expect(description.text.contains("a=rtpmap:96 H264/90000"))
        #expect(description.text.contains("profile-level-id=42c01f; sprop-parameter-sets=Z0LAHw==,aAE="))
    }
}
