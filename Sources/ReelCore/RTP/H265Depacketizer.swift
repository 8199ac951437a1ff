/// NAL units out of H.265 RTP payloads (RFC 7798): single NAL unit packets, aggregation
/// packets, fragmentation units and PACI packets; with `sprop-max-don-diff` > 0 each
/// carries a decoding order number (DONL/DOND) that is read and passed on.
public struct H265Depacketizer: RTPPayloadDepacketizer {
    private var fragments: FragmentAssembler
    private let carriesDecodingOrder: Bool
    private var decodingOrder = DecodingOrderUnwrapper()

    /// A depacketizer; with `maxDonDiff` above 0 (the SDP's `sprop-max-don-diff`), payloads carry decoding order numbers.
    public init(maxDonDiff: Int = 0, maxUnitSize: Int = H265Depacketizer.defaultMaxUnitSize) {
        carriesDecodingOrder = maxDonDiff > 0
        fragments = FragmentAssembler(maxUnitSize: maxUnitSize)
    }

    public mutating func depacketize(_ payload: ArraySlice<UInt8>, sequence: Int64, into units: inout [DepacketizedUnit]) throws(RTPError) {
        try depacketize(payload, sequence: sequence, into: &units, nested: false)
    }

    private mutating func depacketize(_ payload: ArraySlice<UInt8>, sequence: Int64, into units: inout [DepacketizedUnit], nested: Bool) throws(RTPError) {
        guard payload.count >= 3 else { throw RTPError("an H.265 payload of \(payload.count) bytes") }
        let first = payload[payload.startIndex], second = payload[payload.startIndex + 1]
        guard first & 0x80 == 0 else { throw RTPError("an H.265 payload with the forbidden bit set") }
        guard second & 0x07 != 0 else { throw RTPError("an H.265 payload header with TID 0") }
        let type = (first >> 1) & 0x3F
        switch type {
        case 0...47:
            fragments.abandon()
            var body = payload.dropFirst(2)
            let don = try readDecodingOrder(&body)
            units.append(DepacketizedUnit(bytes: [first, second] + body, decodingOrder: don))
        case 48:
            fragments.abandon()
            var body = payload.dropFirst(2)
            let firstDon = try readDecodingOrder(&body)
            var don = firstDon
            var aggregated: [DepacketizedUnit] = []
            try AggregationReader.read(body, into: &aggregated, decodingOrderDifference: carriesDecodingOrder) { difference in
                don = don.map { $0 + Int64(difference) + 1 }
                return don
            }
            if !aggregated.isEmpty { aggregated[0].decodingOrder = firstDon }
            units += aggregated
        case 49:
            guard payload.count >= 4 else { throw RTPError("an H.265 FU of \(payload.count) bytes has no fragment") }
            let header = payload[payload.startIndex + 2]
            let start = header & 0x80 != 0, end = header & 0x40 != 0
            guard !(start && end) else { throw RTPError("an H.265 FU with both its start and end bits set") }
            var body = payload.dropFirst(3)
            if start {
                let don = try readDecodingOrder(&body)
                try fragments.start(header: [first & 0x81 | (header & 0x3F) << 1, second], body: body, sequence: sequence, decodingOrder: don)
            } else if let unit = try fragments.continue(body: body, sequence: sequence, isEnd: end) {
                units.append(DepacketizedUnit(bytes: unit, decodingOrder: fragments.lastDecodingOrder))
            }
        case 50:
            guard !nested else { throw RTPError("a PACI packet inside a PACI packet") }
            guard payload.count >= 4 else { throw RTPError("a PACI packet of \(payload.count) bytes") }
            let fields = UInt16(payload[payload.startIndex + 2]) << 8 | UInt16(payload[payload.startIndex + 3])
            let carriedType = UInt8(fields >> 9 & 0x3F)
            let extensionSize = Int(fields >> 4 & 0x1F)
            guard carriedType != 50 else { throw RTPError("a PACI packet that carries a PACI packet") }
            guard payload.count >= 4 + extensionSize + 1 else { throw RTPError("a PACI header extension of \(extensionSize) bytes runs past the packet") }
            let inner = [first & 0x81 | carriedType << 1, second] + payload.dropFirst(4 + extensionSize)
            try depacketize(inner[...], sequence: sequence, into: &units, nested: true)
        default:
            throw RTPError("H.265 payload type \(type) is reserved")
        }
    }

    private mutating func readDecodingOrder(_ body: inout ArraySlice<UInt8>) throws(RTPError) -> Int64? {
        guard carriesDecodingOrder else { return nil }
        guard body.count >= 2 else { throw RTPError("an H.265 payload too short for its DONL") }
        let value = UInt16(body[body.startIndex]) << 8 | UInt16(body[body.startIndex + 1])
        body = body.dropFirst(2)
        return decodingOrder.unwrap(value)
    }

    public var isDamaged: Bool { fragments.isDamaged }
    /// Forgets that a unit was abandoned.
    public mutating func clearDamage() { fragments.isDamaged = false }
    public mutating func reset() { fragments.abandon() }
}

/// 16-bit decoding order numbers on a 64-bit line, each step the signed 16-bit difference.
struct DecodingOrderUnwrapper: Sendable {
    private var last: UInt16?
    private var value: Int64 = 0

    mutating func unwrap(_ number: UInt16) -> Int64 {
        if let last { value += Int64(Int16(bitPattern: number &- last)) } else { value = Int64(number) }
        last = number
        return value
    }
}
