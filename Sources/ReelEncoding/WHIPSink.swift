import ReelCore
import ReelGStreamer
import ReelPlayer

/// A WHIP destination (RFC 9725): the encoder's H.264 sent to a WebRTC server through
/// GStreamer's `webrtcbin`, signalled over HTTP as WHEP is. The server's keyframe requests
/// (PLI, FIR) reach the encoder through ``takeKeyframeRequest()``.
final class WHIPSink: EncodedSampleSink {
    private let sender: GStreamerWebRTCSender

    /// Connects to the WHIP endpoint `url` (`whip+http://…`, or an `http(s)` URL whose path
    /// ends in `/whip`), with a bearer `token` when given; waits up to `timeout` seconds.
    init(url: String, token: String?, format: VideoFormatDescription, frameRate: Rational, timeout: Double = 15) throws {
        guard let endpoint = WebRTCEndpoint(url), endpoint.role == .publish else {
            throw OutputError(url, "not a WHIP endpoint (whip+http://…, or a URL whose path ends in /whip)")
        }
        let signalling = WebRTCHTTPSignalling(endpoint: endpoint, given: url, token: token, timeout: timeout)
        do {
            sender = try GStreamerWebRTCSender(signalling: signalling, format: format, frameRate: frameRate, timeout: timeout)
        } catch let error as GStreamerError {
            throw OutputError(url, error.description)
        }
    }

    func write(_ sample: EncodedSample) throws {
        do { try sender.send(sample) } catch { throw OutputError("WHIP", error.description) }
    }

    func write(audio packet: Packet) throws {}
    func finish() throws { sender.finish() }
    func takeKeyframeRequest() -> Bool { sender.takeKeyframeRequest() }
}
