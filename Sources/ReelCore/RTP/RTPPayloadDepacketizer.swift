/// A NAL unit taken out of RTP payloads, header included, with its decoding order number
/// when the payload format carries one.
public struct DepacketizedUnit: Sendable, Equatable {
    /// The NAL unit, its header included, without a start code.
    public var bytes: [UInt8]
    /// The decoding order number (H.265 with `sprop-max-don-diff`), unwrapped; `nil` otherwise.
    public var decodingOrder: Int64?

    /// A unit, with its decoding order when the payload format carries one.
    public init(bytes: [UInt8], decodingOrder: Int64? = nil) {
        self.bytes = bytes
        self.decodingOrder = decodingOrder
    }
}

/// Turns one codec's RTP payloads, in sequence order, into NAL units.
public protocol RTPPayloadDepacketizer: Sendable {
    /// Appends the complete units in `payload`; a fragment is kept until its last part.
    mutating func depacketize(_ payload: ArraySlice<UInt8>, sequence: Int64, into units: inout [DepacketizedUnit]) throws(RTPError)
    /// A fragmented unit was abandoned since the last `clearDamage()`.
    var isDamaged: Bool { get }
    /// Forgets that a unit was abandoned, once the caller has counted it.
    mutating func clearDamage()
    /// Packets were lost: a unit in progress cannot be completed.
    mutating func reset()
}

extension RTPPayloadDepacketizer {
    /// The largest NAL unit joined from fragments unless told otherwise: 16 MiB, far above
    /// any real slice, and a cap on what a stream of fragments can make Reel allocate.
    public static var defaultMaxUnitSize: Int { 16 << 20 }
}

/// The units of an aggregation packet (STAP-A, H.265 AP): each behind a 16-bit size, and
/// in H.265 with DON, each after the first behind a one-byte DON difference.
enum AggregationReader {
    static func read(_ body: ArraySlice<UInt8>, into units: inout [DepacketizedUnit], decodingOrderDifference: Bool = false,
                     nextDecodingOrder: (UInt8) -> Int64? = { _ in nil }) throws(RTPError) {
        var offset = body.startIndex
        var count = 0
        while offset < body.endIndex {
            var don: Int64?
            if decodingOrderDifference && count > 0 {
                don = nextDecodingOrder(body[offset])
                offset += 1
            }
            guard body.endIndex - offset >= 2 else { throw RTPError("an aggregation packet ends inside a unit size") }
            let size = Int(body[offset]) << 8 | Int(body[offset + 1])
            offset += 2
            guard size > 0, body.endIndex - offset >= size else { throw RTPError("an aggregated unit of \(size) bytes does not fit its packet") }
            units.append(DepacketizedUnit(bytes: Array(body[offset..<offset + size]), decodingOrder: don))
            offset += size
            count += 1
        }
        guard count > 0 else { throw RTPError("an aggregation packet with no unit") }
    }
}

/// Joins the parts of a fragmented NAL unit (FU-A, H.265 FU): parts must arrive with
/// consecutive sequence numbers, from a start part to an end part, within a size cap.
/// After a missing part, the unit is dropped and parts are ignored until the next start.
package struct FragmentAssembler: Sendable {
    package let maxUnitSize: Int
    private var unit: [UInt8] = []
    /// The size of the last whole unit: the next is likely alike, and reserving it at the
    /// start spares the copies of growing a large unit a packet at a time.
    private var lastUnitSize = 0
    private var lastSequence: Int64?
    private var inProgress = false
    private(set) var lastDecodingOrder: Int64?
    var isDamaged = false

    package init(maxUnitSize: Int = H264Depacketizer.defaultMaxUnitSize) { self.maxUnitSize = maxUnitSize }

    mutating func start(header: [UInt8], body: ArraySlice<UInt8>, sequence: Int64, decodingOrder: Int64? = nil) throws(RTPError) {
        abandon()
        unit = header
        unit.reserveCapacity(max(8 * body.count, min(maxUnitSize, lastUnitSize + lastUnitSize / 4)))
        unit += body
        inProgress = true
        lastSequence = sequence
        lastDecodingOrder = decodingOrder
    }

    /// The whole unit when this part ends it.
    mutating func `continue`(body: ArraySlice<UInt8>, sequence: Int64, isEnd: Bool) throws(RTPError) -> [UInt8]? {
        guard inProgress, lastSequence.map({ $0 + 1 == sequence }) ?? false else {
            // A part without its start, or after a gap: nothing to join it to.
            if inProgress { abandon() }
            isDamaged = true
            return nil
        }
        guard unit.count + body.count <= maxUnitSize else {
            abandon()
            isDamaged = true
            throw RTPError("a fragmented NAL unit grows past \(maxUnitSize) bytes")
        }
        unit += body
        lastSequence = sequence
        guard isEnd else { return nil }
        inProgress = false
        lastUnitSize = unit.count
        defer { unit = [] }
        return unit
    }

    /// Drops a unit in progress (counted as damage).
    mutating func abandon() {
        if inProgress { isDamaged = true }
        inProgress = false
        unit = []
        lastSequence = nil
    }
}
