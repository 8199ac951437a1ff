import Foundation
import ReelCore
import ReelFFmpeg
import ReelPlayer

/// An `rtsp://` input played by Reel's RTSP client and RTP receiver: the receiver ends a
/// picture on its last packet (the RTP marker), where FFmpeg's RTSP demuxer hands its
/// parser NAL units and the parser holds each picture until the next one begins (a
/// frame's time, 33 ms at 30 fps).
enum RTSPPlayback {
    /// The input, when the server's presentation is one H.264 or H.265 video stream and
    /// nothing else; nil otherwise (audio too, another codec), for FFmpeg to play.
    static func open(_ url: String, options: DemuxOptions, latency: Double?) throws -> RTPPlaybackSource? {
        let asked = options.formatOptions["rtsp_transport"]
        let lower = asked.flatMap(RTSPClient.Lower.init(rawValue:))
        // Lower transports Reel's client does not speak (`udp_multicast`, `http`) are FFmpeg's.
        if asked != nil && lower == nil { return nil }
        let timeout = options.timeout ?? 3600
        let client = try RTSPClient(url: url, timeout: timeout)
        let description: SessionDescription
        do {
            let presentation = try client.describe(url: url)
            guard presentation.isVideoOnly, let video = presentation.video else {
                client.stop()
                return nil
            }
            description = video
            try client.setUp(over: lower, url: url)
        } catch {
            client.stop()
            throw error
        }
        // Over TCP the packets come through the client's connection; the kind only labels them.
        let interleaved = client.lower == .tcp ? RTSPInterleavedTransport(client: client) : nil
        var configuration = RTPReceiver.Configuration(description: description, transport: interleaved != nil
            ? .tcp(host: client.address.host, port: client.address.port)
            : .udp(address: client.address.host.contains(":") ? "::" : "0.0.0.0", port: client.clientPorts?.rtp ?? 0))
        configuration.waitForKeyframe = true
        if let latency { configuration.latency = latency }
        let receiver = try RTPReceiver(configuration: configuration, transport: interleaved ?? RTPTransports.make(configuration.transport))
        return try RTPPlaybackSource(url: url, receiver: receiver, format: ("rtsp", "RTSP (Reel's client and RTP receiver, \(client.lower == .tcp ? "interleaved TCP" : "UDP"))"),
                                     timeout: options.timeout, started: {
            try client.play(url: url)
            // The connection's end ends the stream: the server went away.
            client.startReading(deliver: { interleaved?.deliver($0) }, ended: { [weak receiver] in receiver?.end($0) })
        }, ending: { client.stop() })
    }
}
