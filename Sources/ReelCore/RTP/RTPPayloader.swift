/// Splits an access unit's NAL units into RTP payloads: H.264 per RFC 6184 in
/// packetization mode 1 (single NAL unit, STAP-A, FU-A) and H.265 per RFC 7798 (single NAL
/// unit, aggregation packet, fragmentation unit). Small units that follow each other are
/// aggregated while they fit; a unit larger than a payload is fragmented.
public struct RTPPayloader: Sendable {
    /// The codec whose NAL units it packetizes.
    public let codec: VideoCodec
    /// The largest payload, the MTU less the RTP header.
    public let maxPayloadSize: Int

    /// - Parameters:
    ///   - codec: H.264 or H.265.
    ///   - mtu: the largest RTP packet (header included), at least 64 bytes.
    public init(codec: VideoCodec, mtu: Int) throws {
        guard (64...65_507).contains(mtu) else { throw BitstreamError("the MTU must be 64 to 65507 bytes, got \(mtu)") }
        self.codec = codec
        maxPayloadSize = mtu - RTPHeader.size
    }

    /// The payloads of one access unit, in sending order; the last one carries the marker.
    public func payloads<Unit: Collection>(for units: [Unit]) -> [[UInt8]] where Unit.Element == UInt8, Unit.Index == Int {
        var payloads: [[UInt8]] = []
        var index = 0
        let usable = units.filter { $0.count > codec.nalHeaderSize }
        while index < usable.count {
            let unit = usable[index]
            if unit.count > maxPayloadSize {
                payloads += fragments(of: unit)
                index += 1
                continue
            }
            // Aggregate the units from here that fit together (each behind a 2-byte size).
            var end = index, size = codec.nalHeaderSize
            while end < usable.count, size + 2 + usable[end].count <= maxPayloadSize {
                size += 2 + usable[end].count
                end += 1
            }
            if end - index >= 2 {
                payloads.append(aggregate(usable[index..<end]))
                index = end
            } else {
                payloads.append(Array(unit))
                index += 1
            }
        }
        return payloads
    }

    private func aggregate<Unit: Collection>(_ units: ArraySlice<Unit>) -> [UInt8] where Unit.Element == UInt8, Unit.Index == Int {
        var payload: [UInt8]
        switch codec {
        case .h264:
            let forbidden = units.reduce(UInt8(0)) { $0 | $1[$1.startIndex] & 0x80 }
            let importance = units.map { $0[$0.startIndex] & 0x60 }.max() ?? 0
            payload = [forbidden | importance | 24]
        case .h265:
            let layer = units.map { UInt16($0[$0.startIndex] & 1) << 5 | UInt16($0[$0.startIndex + 1] >> 3) }.min() ?? 0
            let temporal = units.map { UInt16($0[$0.startIndex + 1] & 7) }.min() ?? 1
            let header = UInt16(48) << 9 | layer << 3 | temporal
            payload = [UInt8(header >> 8), UInt8(header & 0xFF)]
        }
        for unit in units {
            payload += [UInt8(unit.count >> 8), UInt8(unit.count & 0xFF)]
            payload += unit
        }
        return payload
    }

    private func fragments<Unit: Collection>(of unit: Unit) -> [[UInt8]] where Unit.Element == UInt8, Unit.Index == Int {
        let start = unit.startIndex
        let header: [UInt8], type: UInt8
        switch codec {
        case .h264:
            header = [unit[start] & 0xE0 | 28]
            type = unit[start] & 0x1F
        case .h265:
            header = [unit[start] & 0x81 | 49 << 1, unit[start + 1]]
            type = (unit[start] >> 1) & 0x3F
        }
        let body = unit[(start + codec.nalHeaderSize)...]
        let chunk = maxPayloadSize - header.count - 1
        var payloads: [[UInt8]] = []
        var offset = body.startIndex
        while offset < body.endIndex {
            let end = min(offset + chunk, body.endIndex)
            let first = offset == body.startIndex, last = end == body.endIndex
            payloads.append(header + [(first ? 0x80 : 0) | (last ? 0x40 : 0) | type] + body[offset..<end])
            offset = end
        }
        return payloads
    }
}
