/// Gathers depacketized NAL units into access units. A unit closes the picture before it
/// when its timestamp differs, when it is the first slice of a new picture while the
/// current one already has slices, or when it is a unit that may only precede a picture
/// (parameter set, access unit delimiter, SEI); the marker bit closes the picture it ends.
/// Parameter sets from the SDP and those seen in-band are put before keyframes that lack
/// them. With `waitForKeyframe`, nothing goes out until an intact keyframe, at the start
/// and again after damage.
public struct AccessUnitAssembler: Sendable {
    /// The codec whose NAL units it joins.
    public let codec: VideoCodec
    /// Drop access units until an intact keyframe, at the start and after damage.
    public var waitForKeyframe: Bool
    /// The latest parameter set of each kind and id, in-band ones replacing the SDP's.
    public private(set) var parameterSets: [ParameterSetKey: [UInt8]] = [:]

    private var units: [DepacketizedUnit] = []
    private var timestamp: Int64?
    private var hasSlices = false
    private var corrupted = false
    private var damageBeforeNext = false
    private var restartBeforeNext = false
    private var waitingForKeyframe: Bool
    private var markersAreReliable = true
    private var heldRepeats: [DepacketizedUnit] = []
    private var closedByMarker = false
    /// H.265 RASL pictures after the keyframe waiting ended at: their references are gone.
    private var skippingLeadingPictures = false
    /// Access units dropped while waiting for a keyframe.
    public private(set) var skipped = 0

    /// Identifies a parameter set: its NAL type and its id (`sps_id`, `pps_id`…).
    public struct ParameterSetKey: Hashable, Sendable, Comparable {
        var type: UInt8
        var id: UInt32
        /// By type, then id: the order parameter sets go in a stream (VPS, SPS, PPS).
        public static func < (a: Self, b: Self) -> Bool { (a.type, a.id) < (b.type, b.id) }
    }

    /// An assembler that knows `parameterSets` (the SDP's) before the stream brings any.
    public init(codec: VideoCodec, parameterSets: [[UInt8]] = [], waitForKeyframe: Bool = false) {
        self.codec = codec
        self.waitForKeyframe = waitForKeyframe
        waitingForKeyframe = waitForKeyframe
        for unit in parameterSets { remember(unit) }
    }

    /// The units of one packet with its timestamp and marker bit.
    public mutating func add(_ packetUnits: [DepacketizedUnit], timestamp packetTimestamp: Int64, marker: Bool, into out: inout [AccessUnit]) {
        if let timestamp, timestamp != packetTimestamp, !units.isEmpty || corrupted {
            close(into: &out)
            units = heldRepeats
            heldRepeats = []
        }
        if damageBeforeNext {
            // Units went missing before this packet: the picture it belongs to is damaged.
            corrupted = true
            damageBeforeNext = false
        }
        // Units at the timestamp of a picture a marker just closed: either the next picture
        // (parameter sets, SEI…) or, from senders that mark every NAL unit, more of it.
        let afterMarker = closedByMarker && packetTimestamp == timestamp
        closedByMarker = false
        timestamp = packetTimestamp
        for unit in packetUnits where unit.bytes.count > codec.nalHeaderSize {
            let type = codec.nalType(unit.bytes[0])
            if (hasSlices || (afterMarker && units.isEmpty)) && codec.isParameterSet(nalType: type)
                && parameterSets[key(of: unit.bytes, type: type)] == unit.bytes {
                // A copy of a known parameter set: a new picture, or (GStreamer's
                // config-interval=-1 on slice-aligned input) a repeat between slices of one.
                heldRepeats.append(unit)
                continue
            }
            let continuesPicture = codec.isSlice(nalType: type) && !codec.isFirstSliceOfPicture(unit.bytes)
            if !heldRepeats.isEmpty {
                if continuesPicture {
                    heldRepeats = []
                } else {
                    close(into: &out)
                    units = heldRepeats
                    heldRepeats = []
                }
            }
            if afterMarker && units.isEmpty && continuesPicture {
                // The marker came before the picture's last slice: markers are ignored from now on.
                markersAreReliable = false
            }
            if hasSlices && (codec.isFirstSliceOfPicture(unit.bytes) || codec.precedesPictures(nalType: type)) {
                close(into: &out)
            }
            if codec.isParameterSet(nalType: type) { remember(unit.bytes) }
            if codec.isSlice(nalType: type) { hasSlices = true }
            units.append(unit)
        }
        // Still nothing but held repeats since the marker: the next packet decides.
        closedByMarker = afterMarker && units.isEmpty
        // A marker ends a picture: one on a packet before any slice is misplaced.
        if marker && markersAreReliable && hasSlices {
            close(into: &out)
            closedByMarker = true
        }
    }

    /// Packets were lost: the picture in progress, or the next one when none is, is damaged.
    public mutating func noteLoss() {
        if units.isEmpty { damageBeforeNext = true } else { corrupted = true }
    }

    /// The sender restarted: what is in progress is damaged and a keyframe is needed.
    public mutating func noteDiscontinuity(into out: inout [AccessUnit]) {
        noteLoss()
        close(into: &out)
        timestamp = nil
        damageBeforeNext = true
        restartBeforeNext = true
    }

    /// Closes the last picture at the end of the stream.
    public mutating func finish(into out: inout [AccessUnit]) {
        close(into: &out)
        heldRepeats = []
    }

    private mutating func close(into out: inout [AccessUnit]) {
        defer {
            units = []
            hasSlices = false
            corrupted = false
        }
        guard !units.isEmpty, let timestamp else {
            // Nothing of a damaged picture survived: the next one is likely to miss it.
            if corrupted { damageBeforeNext = true }
            return
        }
        if units.contains(where: { $0.decodingOrder != nil }) {
            // RFC 7798 6.2: with DON the units may travel out of decoding order.
            units = units.enumerated().sorted { ($0.element.decodingOrder ?? 0, $0.offset) < ($1.element.decodingOrder ?? 0, $1.offset) }.map(\.element)
        }
        var bytes = units.map(\.bytes)
        let types = bytes.map { codec.nalType($0[0]) }
        // A picture's later slices cut off by a misplaced marker continue it, they do not start one.
        let firstSlice = bytes.first { codec.isSlice(nalType: codec.nalType($0[0])) }
        let startsPicture = firstSlice.map { codec.isFirstSliceOfPicture($0) } ?? true
        let isKeyframe = startsPicture && types.contains { codec.isRandomAccess(nalType: $0) }
        if waitingForKeyframe || (waitForKeyframe && corrupted) {
            guard isKeyframe, !corrupted else {
                waitingForKeyframe = true
                skipped += 1
                return
            }
            waitingForKeyframe = false
            // Leading pictures skipped at a random access (RASL) reference pictures before it.
            skippingLeadingPictures = codec == .h265
        }
        if skippingLeadingPictures {
            let slices = types.filter { codec.isSlice(nalType: $0) }
            if !slices.isEmpty && slices.allSatisfy({ $0 == 8 || $0 == 9 }) {
                skipped += 1
                return
            }
            if slices.contains(where: { !(6...9).contains($0) }) && !isKeyframe { skippingLeadingPictures = false }
        }
        if isKeyframe && !types.contains(where: { codec.isParameterSet(nalType: $0) }) && !parameterSets.isEmpty {
            // Before the first slice, after an access unit delimiter if there is one.
            let insertAt = types.first.map { codec.isDelimiter(nalType: $0) } == true ? 1 : 0
            bytes.insert(contentsOf: parameterSets.sorted { $0.key < $1.key }.map(\.value), at: insertAt)
        }
        out.append(AccessUnit(units: bytes, timestamp: timestamp, isKeyframe: isKeyframe, isCorrupted: corrupted, followsRestart: restartBeforeNext))
        restartBeforeNext = false
    }

    // MARK: NAL unit kinds

    private mutating func remember(_ unit: [UInt8]) {
        guard unit.count > codec.nalHeaderSize else { return }
        let type = codec.nalType(unit[0])
        guard codec.isParameterSet(nalType: type) else { return }
        parameterSets[key(of: unit, type: type)] = unit
    }

    private func key(of unit: [UInt8], type: UInt8) -> ParameterSetKey { ParameterSetKey(type: type, id: parameterSetID(unit, type: type)) }

    /// seq_parameter_set_id / pic_parameter_set_id for H.264; vps_id for H.265 (SPS and PPS
    /// ids sit behind variable-length fields, so one of each is kept).
    private func parameterSetID(_ unit: [UInt8], type: UInt8) -> UInt32 {
        switch (codec, type) {
        case (.h264, 7):
            var reader = BitReader(nalUnit: unit.dropFirst(4))
            return (try? reader.unsignedGolomb()) ?? 0
        case (.h264, 8):
            var reader = BitReader(nalUnit: unit.dropFirst(1))
            return (try? reader.unsignedGolomb()) ?? 0
        case (.h265, 32):
            return UInt32(unit[2] >> 4)
        default:
            return 0
        }
    }
}
