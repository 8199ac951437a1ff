import Foundation
import ReelCore

/// `reel-bench rtp-depacketize FILE`: every RTP packet of an RFC 4571 framed file (read
/// into memory first) through RTP parsing, the jitter buffer, the depacketizer and
/// access-unit assembly with Annex B output, on this thread; the median of `passes`.
enum RTPBenchmark {
    static func run(path: String, codec: VideoCodec, passes: Int) throws -> (packets: Int, accessUnits: Int, packetsPerSecond: Double) {
        guard let data = FileManager.default.contents(atPath: path) else { throw RTPError("cannot read \(path)") }
        var framer = LengthPrefixedFramer(lengthSize: 2)
        framer.append(data)
        var datagrams: [[UInt8]] = []
        while let bytes = try framer.next() { datagrams.append(bytes) }
        var rates: [Double] = []
        var counts = (0, 0)
        for _ in 0..<max(1, passes) {
            let start = monotonicSeconds()
            counts = try depacketize(datagrams, codec: codec)
            rates.append(Double(counts.0) / (monotonicSeconds() - start))
        }
        return (counts.0, counts.1, rates.sorted()[rates.count / 2])
    }

    static func depacketize(_ datagrams: [[UInt8]], codec: VideoCodec) throws -> (packets: Int, accessUnits: Int) {
        var jitter = JitterBuffer(configuration: try .init(latency: 0.2))
        var depacketizer = try RTPVideoDepacketizer(description: SessionDescription(codec: codec, address: "127.0.0.1", port: 5004, parameterSets: []))
        var units: [AccessUnit] = []
        var packets = 0, accessUnits = 0
        for bytes in datagrams {
            let packet = try RTPPacket(bytes: bytes)
            packets += 1
            jitter.insert(packet, arrival: Double(packets) * 1e-4)
            for output in jitter.pop(now: Double(packets) * 1e-4) { depacketizer.push(output, into: &units) }
            accessUnits += units.count
            for unit in units { blackHole(unit.annexB.count) }
            units.removeAll(keepingCapacity: true)
        }
        for output in jitter.flush() { depacketizer.push(output, into: &units) }
        depacketizer.finish(into: &units)
        return (packets, accessUnits + units.count)
    }
}

@inline(never) func blackHole(_ value: Int) { if value == -1 { print(value) } }
