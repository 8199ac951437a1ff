/// Cuts 8 kHz mono audio into the RTP packets a camera's back-channel takes: G.711 μ-law
/// (payload type 0, PCMU) or A-law (8, PCMA), 20 ms (160 samples) to a packet, as RFC 3551
/// recommends for G.711; the marker set on the first packet of each talkspurt.
public struct TalkBackPacketizer: Sendable {
    /// The G.711 variant a camera takes, named by its RTP encoding name.
    public enum Codec: String, Sendable, CaseIterable {
        /// μ-law (PCMU): North America and Japan.
        case muLaw = "PCMU"
        /// A-law (PCMA): elsewhere.
        case aLaw = "PCMA"

        /// The payload type RFC 3551 gives it.
        public var staticPayloadType: UInt8 { self == .muLaw ? 0 : 8 }
    }

    /// G.711's samples a second (and its RTP clock rate).
    public static let sampleRate = 8000
    /// Samples in one packet: 20 ms.
    public static let samplesPerPacket = 160

    /// How samples become bytes.
    public let codec: Codec
    /// The payload type written in each packet: the camera's, or the codec's static one.
    public let payloadType: UInt8
    /// The stream's synchronisation source.
    public let ssrc: UInt32
    /// The next packet's sequence number.
    public private(set) var sequence: UInt16
    /// The next packet's RTP time (8 kHz).
    public private(set) var timestamp: UInt32
    private var talking = false

    /// A stream starting at `sequence` and `timestamp` (random for each session, RFC 3550 §5.1).
    public init(codec: Codec, payloadType: UInt8? = nil, ssrc: UInt32, sequence: UInt16, timestamp: UInt32) {
        self.codec = codec
        self.payloadType = (payloadType ?? codec.staticPayloadType) & 0x7F
        self.ssrc = ssrc
        self.sequence = sequence
        self.timestamp = timestamp
    }

    /// The packet carrying `samples` (at most ``samplesPerPacket``); the next one follows
    /// it in sequence and time.
    public mutating func packet(_ samples: some Collection<Int16>) -> [UInt8] {
        precondition(samples.count <= Self.samplesPerPacket, "a G.711 packet carries 20 ms")
        var bytes = [UInt8](repeating: 0, count: 12)
        bytes.reserveCapacity(12 + samples.count)
        bytes[0] = 0x80
        bytes[1] = payloadType | (talking ? 0 : 0x80)
        bytes[2] = UInt8(sequence >> 8)
        bytes[3] = UInt8(sequence & 0xFF)
        for index in 0..<4 {
            bytes[4 + index] = UInt8(truncatingIfNeeded: timestamp >> (24 - 8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: ssrc >> (24 - 8 * index))
        }
        switch codec {
        case .muLaw: bytes.append(contentsOf: samples.lazy.map(G711.muLaw))
        case .aLaw: bytes.append(contentsOf: samples.lazy.map(G711.aLaw))
        }
        talking = true
        sequence &+= 1
        timestamp &+= UInt32(samples.count)
        return bytes
    }

    /// A pause in the talk (push-to-talk let go): the time goes on by `samples`, and the
    /// next packet starts a new talkspurt (marker set).
    public mutating func pause(samples: Int) {
        talking = false
        timestamp &+= UInt32(truncatingIfNeeded: samples)
    }
}
