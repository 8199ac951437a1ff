import ReelCore
import ReelFFmpeg

/// Where `reel encode` writes: an Annex B file, an MP4 (or another container libavformat
/// knows by the file name), an RTP stream with its SDP, a live stream to a server, or a
/// WebRTC server through WHIP.
public enum EncodeDestination: Sendable, Equatable {
    /// An H.264 or H.265 elementary stream with start codes; parameter sets before every keyframe when asked.
    case annexB(path: String, repeatParameterSets: Bool)
    /// A container libavformat knows by the file's extension (MP4, MOV, MKV…).
    case container(path: String)
    /// RTP to `rtp://HOST:PORT`, packets of at most `mtu` bytes, the SDP written to `sdpPath` when given.
    case rtp(url: String, sdpPath: String?, mtu: Int)
    /// A live stream in `container` (FFmpeg's muxer name): FLV to `rtmp://` or `rtmps://`
    /// (a server such as nginx-rtmp), MPEG-TS to `srt://`, `udp://` or `tcp://`.
    case stream(url: String, container: String)
    /// H.264 over WebRTC to a WHIP endpoint (`whip+http://…`, `whip+https://…`, or an
    /// `http(s)` URL whose path ends in `/whip`), with a bearer token when given.
    case whip(url: String, token: String?)

    /// Chosen from the output's name: `rtp://…`, a stream URL (`rtmp://`, `rtmps://`,
    /// `srt://`, `udp://`, `tcp://`), a WHIP endpoint, `.h264`/`.264`/`.h265`/`.265`/`.hevc`,
    /// or a container.
    public init(output: String, sdpPath: String? = nil, mtu: Int = 1400, repeatParameterSets: Bool = false, whipToken: String? = nil) {
        let lowered = output.lowercased()
        if let endpoint = WebRTCEndpoint(output), endpoint.role == .publish {
            self = .whip(url: output, token: whipToken)
        } else if lowered.hasPrefix("rtp://") {
            self = .rtp(url: output, sdpPath: sdpPath, mtu: mtu)
        } else if lowered.hasPrefix("rtmp://") || lowered.hasPrefix("rtmps://") {
            self = .stream(url: output, container: "flv")
        } else if ["srt://", "udp://", "tcp://"].contains(where: { lowered.hasPrefix($0) }) {
            self = .stream(url: output, container: "mpegts")
        } else if [".h264", ".264", ".h265", ".265", ".hevc"].contains(where: { lowered.hasSuffix($0) }) {
            self = .annexB(path: output, repeatParameterSets: repeatParameterSets)
        } else {
            self = .container(path: output)
        }
    }
}

extension EncodeDestination {
    /// Whether it is a live stream to a server (which a file is sent to at its frame rate).
    var isStream: Bool {
        switch self {
        case .stream, .whip: true
        default: false
        }
    }

    /// Whether it is a WHIP endpoint.
    var isWebRTC: Bool {
        if case .whip = self { true } else { false }
    }
}

/// Takes the samples of one encode and the audio packets beside them.
protocol EncodedSampleSink: AnyObject {
    func write(_ sample: EncodedSample) throws
    func write(audio packet: Packet) throws
    func finish() throws
    /// Whether the receiver asked for a keyframe since the last call (a WebRTC peer's PLI).
    func takeKeyframeRequest() -> Bool
}

extension EncodedSampleSink {
    func takeKeyframeRequest() -> Bool { false }
}

extension AnnexBWriter: EncodedSampleSink {
    func write(audio packet: Packet) throws {}
}

extension RTPSender: EncodedSampleSink {
    func write(audio packet: Packet) throws {}
}

/// The container writer, told each sample's duration (the last one would otherwise be
/// cut from the track).
final class ContainerSink: EncodedSampleSink {
    private let muxer: EncodedSampleMuxer
    private let frameTicks: Int64
    /// Seconds the output stays open after its trailer (``EncodeJob/closingHold(_:)``).
    private let holdingOpen: Double

    init(muxer: EncodedSampleMuxer, frameRate: Rational, holdingOpen: Double = 0) {
        self.muxer = muxer
        self.holdingOpen = holdingOpen
        frameTicks = frameRate.isKnown ? Int64(EncoderSession.timescale) * Int64(frameRate.denominator) / Int64(frameRate.numerator) : 0
    }

    func write(_ sample: EncodedSample) throws { try muxer.write(sample, duration: frameTicks) }
    func write(audio packet: Packet) throws { try muxer.write(audio: packet) }
    func finish() throws { try muxer.finish(holdingOpen: holdingOpen) }
}
