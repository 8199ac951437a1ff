import ReelCore
import Testing

@Suite struct TalkBackPacketizerTests {
    /// RFC 3550's fixed header: version 2, the payload type, the marker on a talkspurt's
    /// first packet only, sequence and timestamp in network order (wrapping), the SSRC; then
    /// one G.711 byte per sample.
    @Test func packetsCarryRFC3550HeadersAndG711Bytes() {
        var packetizer = TalkBackPacketizer(codec: .muLaw, ssrc: 0x0102_0304, sequence: 0xFFFF, timestamp: 0xFFFF_FFF0)
        let samples = (0..<160).map { Int16($0 * 100 - 8000) }
        let first = packetizer.packet(samples)
        #expect(first.count == 12 + 160)
        #expect(Array(first[0..<12]) == [0x80, 0x80, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0, 0x01, 0x02, 0x03, 0x04])
        #expect(Array(first[12...]) == samples.map(G711.muLaw))
        let second = packetizer.packet(samples)
        // No marker; the sequence and the timestamp wrap.
        #expect(Array(second[0..<8]) == [0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x90])
    }

    /// A-law on a dynamic payload type the camera named.
    @Test func aLawOnTheCamerasPayloadType() {
        var packetizer = TalkBackPacketizer(codec: .aLaw, payloadType: 101, ssrc: 7, sequence: 0, timestamp: 0)
        let packet = packetizer.packet([0, 1000, -1000])
        #expect(packet[1] == 0x80 | 101)
        #expect(Array(packet[12...]) == [G711.aLaw(0), G711.aLaw(1000), G711.aLaw(-1000)])
        #expect(TalkBackPacketizer.Codec.aLaw.staticPayloadType == 8 && TalkBackPacketizer.Codec.muLaw.staticPayloadType == 0)
    }

    /// Push-to-talk let go for 0.5 s: the time moves on by it, and the next packet starts a
    /// new talkspurt (marker) with the next sequence number (no gap in sequence).
    @Test func aPauseMovesTheTimeOnAndMarksTheNextTalkspurt() {
        var packetizer = TalkBackPacketizer(codec: .muLaw, ssrc: 1, sequence: 10, timestamp: 1000)
        _ = packetizer.packet([Int16](repeating: 0, count: 160))
        packetizer.pause(samples: 4000)
        let resumed = packetizer.packet([Int16](repeating: 0, count: 160))
        #expect(resumed[1] & 0x80 != 0)
        #expect(UInt16(resumed[2]) << 8 | UInt16(resumed[3]) == 11)
        let timestamp = resumed[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(timestamp == 1000 + 160 + 4000)
    }
}
