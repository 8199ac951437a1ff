import Foundation
import ReelCore
import Testing

@Suite struct RTPPacketTests {
    @Test func everyHeaderFieldIsRead() throws {
        // V=2 P=1 X=1 CC=2, M=1 PT=97, seq 0xABCD, ts, ssrc, 2 CSRCs, a 1-word extension, 3 bytes payload, 2 padding.
        var bytes: [UInt8] = [0xB2, 0xE1, 0xAB, 0xCD, 0, 0, 1, 0, 0xDE, 0xAD, 0xBE, 0xEF]
        bytes += [0, 0, 0, 1, 0, 0, 0, 2]
        bytes += [0xBE, 0xDE, 0, 1, 9, 9, 9, 9]
        bytes += [7, 8, 9, 0, 2]
        let packet = try RTPPacket(bytes: bytes)
        #expect(packet.marker && packet.payloadType == 97)
        #expect(packet.sequenceNumber == 0xABCD && packet.timestamp == 256 && packet.ssrc == 0xDEAD_BEEF)
        #expect(packet.csrcs == [1, 2])
        #expect(packet.extensionProfile == 0xBEDE && packet.extensionRange.map { Array(bytes[$0]) } == [9, 9, 9, 9])
        #expect(Array(packet.payload) == [7, 8, 9])
    }

    @Test(arguments: [
        [UInt8](repeating: 0x80, count: 11),                       // shorter than the header
        [0x40, 96, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1],                  // version 1
        [0x8F, 96, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0],      // 15 CSRCs announced, one present
        [0x90, 96, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0xFF, 0xFF], // extension longer than the packet
        [0xA0, 96, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 5, 200],           // 200 bytes of padding
        [0xA0, 96, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 5, 0],             // padding count 0
    ])
    func malformedPacketsAreRejected(_ bytes: [UInt8]) {
        #expect(throws: RTPError.self) { try RTPPacket(bytes: bytes) }
    }

    @Test func aReceiverReportRoundTripsAndCarriesTheCNAME() throws {
        let block = RTCPReportBlock(ssrc: 0xCAFE_BABE, fractionLost: 25, cumulativeLost: -3, extendedHighestSequence: 70_000,
                                    jitter: 321, lastSenderReport: 0x1234_5678, delaySinceLastSenderReport: 65536)
        let bytes = RTCPPacket.receiverReport(ssrc: 42, reports: [block], cname: "reel@host")
        #expect(bytes.count % 4 == 0)
        let packets = try RTCPPacket.parseCompound(bytes)
        #expect(packets.count == 2)
        #expect(packets[0] == .receiverReport(ssrc: 42, reports: [block]))
        #expect(packets[1] == .other(packetType: 202))
        #expect(String(decoding: bytes[(8 + 24 + 4 + 4 + 2)...].prefix(9), as: UTF8.self) == "reel@host")
    }

    @Test func aSenderReportAndAByeAreRead() throws {
        // SR from RFC 3550 6.4.1 with no report block, then BYE with a reason.
        var bytes: [UInt8] = [0x80, 200, 0, 6, 0, 0, 0, 7]
        bytes += [0xE9, 0, 0, 0, 0x80, 0, 0, 0]   // NTP
        bytes += [0, 1, 0, 0, 0, 0, 0, 10, 0, 0, 3, 232]
        bytes += [0x81, 203, 0, 3, 0, 0, 0, 7, 4] + Array("done".utf8) + [0, 0, 0]
        let packets = try RTCPPacket.parseCompound(bytes)
        #expect(packets == [
            .senderReport(ssrc: 7, ntpTimestamp: 0xE900_0000_8000_0000, rtpTimestamp: 65536, packetCount: 10, octetCount: 1000, reports: []),
            .bye(ssrcs: [7], reason: "done"),
        ])
        #expect(throws: RTPError.self) { try RTCPPacket.parseCompound(Array(bytes.prefix(30))) }
        #expect(throws: RTPError.self) { try RTCPPacket.parseCompound([0x81, 201, 0, 1, 0, 0, 0, 1]) }
    }
}
