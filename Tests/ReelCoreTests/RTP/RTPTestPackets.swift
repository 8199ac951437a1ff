import ReelCore

/// RTP packets for tests, built byte by byte as RFC 3550 lays them out.
enum TestPackets {
    static func rtp(sequence: UInt16, timestamp: UInt32 = 0, marker: Bool = false, ssrc: UInt32 = 0x1234_5678,
                    payload: [UInt8] = [0x41, 0x9A], payloadType: UInt8 = 96) -> RTPPacket {
        let header = RTPHeader(marker: marker, payloadType: payloadType, sequenceNumber: sequence, timestamp: timestamp, ssrc: ssrc)
        return try! RTPPacket(bytes: header.bytes + payload)
    }

    /// Payloads of one access unit through Reel's payloader, as packets from `sequence` on.
    static func packets(units: [[UInt8]], codec: VideoCodec, sequence: UInt16, timestamp: UInt32, mtu: Int = 200, ssrc: UInt32 = 0x1234_5678) -> [RTPPacket] {
        let payloads = try! RTPPayloader(codec: codec, mtu: mtu).payloads(for: units.map { $0[...] })
        return payloads.enumerated().map { index, payload in
            rtp(sequence: sequence &+ UInt16(index), timestamp: timestamp, marker: index == payloads.count - 1, ssrc: ssrc, payload: payload)
        }
    }
}
