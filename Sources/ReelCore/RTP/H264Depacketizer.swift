/// NAL units out of H.264 RTP payloads (RFC 6184), packetization modes 0 and 1: single
/// NAL unit packets, STAP-A and FU-A. The interleaved mode's STAP-B, MTAP and FU-B are
/// rejected with an error that names them.
public struct H264Depacketizer: RTPPayloadDepacketizer {
    private var fragments = FragmentAssembler()

    /// A depacketizer that joins fragmented units of up to `maxUnitSize` bytes.
    public init(maxUnitSize: Int = H264Depacketizer.defaultMaxUnitSize) {
        fragments = FragmentAssembler(maxUnitSize: maxUnitSize)
    }

    public mutating func depacketize(_ payload: ArraySlice<UInt8>, sequence: Int64, into units: inout [DepacketizedUnit]) throws(RTPError) {
        guard let indicator = payload.first else { throw RTPError("an empty H.264 payload") }
        guard indicator & 0x80 == 0 else { throw RTPError("an H.264 payload with the forbidden bit set") }
        let type = indicator & 0x1F
        switch type {
        case 1...23:
            fragments.abandon()
            units.append(DepacketizedUnit(bytes: Array(payload)))
        case 24:
            fragments.abandon()
            try AggregationReader.read(payload.dropFirst(), into: &units)
        case 28:
            guard payload.count >= 3 else { throw RTPError("an FU-A of \(payload.count) bytes has no fragment") }
            let header = payload[payload.startIndex + 1]
            let start = header & 0x80 != 0, end = header & 0x40 != 0
            guard !(start && end) else { throw RTPError("an FU-A with both its start and end bits set") }
            let body = payload.dropFirst(2)
            if start {
                try fragments.start(header: [indicator & 0xE0 | header & 0x1F], body: body, sequence: sequence)
            } else if let unit = try fragments.continue(body: body, sequence: sequence, isEnd: end) {
                units.append(DepacketizedUnit(bytes: unit))
            }
        case 25: throw RTPError("STAP-B (interleaved mode) is not supported")
        case 26, 27: throw RTPError("MTAP (interleaved mode) is not supported")
        case 29: throw RTPError("FU-B (interleaved mode) is not supported")
        default: throw RTPError("H.264 NAL unit type \(type) is not valid in RTP")
        }
    }

    public var isDamaged: Bool { fragments.isDamaged }
    /// Forgets that a unit was abandoned.
    public mutating func clearDamage() { fragments.isDamaged = false }
    public mutating func reset() { fragments.abandon() }
}
