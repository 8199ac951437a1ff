import ReelCore

/// libFuzzer's entry. An input that starts with `v` is an SDP (as every SDP does); any
/// other is read as a compound RTCP packet and as a run of RTP packets each behind a
/// 16-bit length (RFC 4571 framing), the byte after each length giving the arrival step,
/// which go through the jitter buffer and both depacketizers. (Parsing binary runs as
/// text cost most of the time and found nothing the SDP seeds do not reach.) Everything malformed must come back as an error or a damaged picture,
/// never a trap, a hang or an unbounded allocation.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRTP(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if bytes.first == UInt8(ascii: "v") {
        if let description = try? SessionDescription(parsing: String(decoding: bytes, as: UTF8.self)) {
            _ = description.text
        }
        return 0
    }
    _ = try? RTCPPacket.parseCompound(bytes)

    var framer = LengthPrefixedFramer(lengthSize: 2)
    framer.append(bytes)
    var packets: [(RTPPacket, Double)] = []
    var time = 0.0
    while let framed = try? framer.next(), !framed.isEmpty {
        time += Double(framed[0]) / 1000
        if let packet = try? RTPPacket(bytes: Array(framed.dropFirst())) { packets.append((packet, time)) }
    }
    for codec in VideoCodec.allCases {
        var description = SessionDescription(codec: codec, address: "127.0.0.1", port: 5004, parameterSets: [])
        description.maxDonDiff = codec == .h265 && size % 2 == 1 ? 1 : 0
        guard var depacketizer = try? RTPVideoDepacketizer(description: description, options: .init(waitForKeyframe: size % 3 == 0, maxUnitSize: 1 << 16)),
              let configuration = try? JitterBuffer.Configuration(latency: 0.05, maxPackets: 64) else { continue }
        var jitter = JitterBuffer(configuration: configuration)
        var units: [AccessUnit] = []
        for (packet, arrival) in packets {
            jitter.insert(packet, arrival: arrival)
            for output in jitter.pop(now: arrival) { depacketizer.push(output, into: &units) }
        }
        for output in jitter.flush() { depacketizer.push(output, into: &units) }
        depacketizer.finish(into: &units)
        for unit in units { _ = unit.lengthPrefixed }
        var timestamps = DecodeTimestampGenerator()
        for unit in units { _ = timestamps.decodeTime(forPresentationTime: unit.timestamp) }
    }
    return 0
}
