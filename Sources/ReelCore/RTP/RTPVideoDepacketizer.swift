/// A video stream's path from ordered RTP packets to access units: the codec's payload
/// depacketizer, then the access unit assembler. Losses and restarts reported by the
/// jitter buffer abandon fragments in progress and mark pictures damaged; a malformed
/// payload is counted, marks its picture damaged and is skipped.
public struct RTPVideoDepacketizer: Sendable {
    /// How strict the depacketizer is, and how much it joins.
    public struct Options: Sendable, Equatable {
        /// Drop access units until the first keyframe (a decoder cannot start before one).
        public var waitForKeyframe = false
        /// The largest NAL unit accepted out of fragments.
        public var maxUnitSize = H264Depacketizer.defaultMaxUnitSize
        /// Options; every access unit is passed on and units of up to 16 MiB are joined, unless told.
        public init(waitForKeyframe: Bool = false, maxUnitSize: Int = H264Depacketizer.defaultMaxUnitSize) {
            self.waitForKeyframe = waitForKeyframe
            self.maxUnitSize = maxUnitSize
        }
    }

    /// Joins NAL units into access units; its counts say what it has seen.
    public private(set) var assembler: AccessUnitAssembler
    private var payloads: any RTPPayloadDepacketizer
    private var units: [DepacketizedUnit] = []
    /// Payloads rejected as malformed, and the last reason.
    public private(set) var malformedPayloads = 0
    /// Why the last malformed payload was rejected.
    public private(set) var lastError: RTPError?

    /// A depacketizer for the codec, payload format and options the SDP gives.
    public init(description: SessionDescription, options: Options = Options()) throws(RTPError) {
        switch description.codec {
        case .h264:
            guard description.packetizationMode < 2 else { throw RTPError("H.264 packetization-mode 2 (interleaved) is not supported") }
            payloads = H264Depacketizer(maxUnitSize: options.maxUnitSize)
        case .h265:
            payloads = H265Depacketizer(maxDonDiff: description.maxDonDiff, maxUnitSize: options.maxUnitSize)
        }
        assembler = AccessUnitAssembler(codec: description.codec, parameterSets: description.parameterSets, waitForKeyframe: options.waitForKeyframe)
    }

    /// Takes what the jitter buffer released; appends the access units it completes.
    public mutating func push(_ output: JitterBuffer.Output, into out: inout [AccessUnit]) {
        switch output {
        case .packet(let packet, let sequence, let timestamp):
            units.removeAll(keepingCapacity: true)
            do {
                try payloads.depacketize(packet.payload, sequence: sequence, into: &units)
            } catch {
                malformedPayloads += 1
                lastError = error
                assembler.noteLoss()
            }
            if payloads.isDamaged {
                assembler.noteLoss()
                payloads.clearDamage()
            }
            assembler.add(units, timestamp: timestamp, marker: packet.marker, into: &out)
        case .lost:
            payloads.reset()
            payloads.clearDamage()
            assembler.noteLoss()
        case .discontinuity:
            payloads.reset()
            payloads.clearDamage()
            assembler.noteDiscontinuity(into: &out)
        }
    }

    /// Hands over the access unit in progress, at the end of the stream.
    public mutating func finish(into out: inout [AccessUnit]) { assembler.finish(into: &out) }
}
