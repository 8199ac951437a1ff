import ArgumentParser
import Foundation
import Reel

/// How `reel play`, `probe` and `decode` reach a network input: RTSP's transport, the
/// credentials a server asks for (RTSP, HTTP, RTMP) and how a TLS server's certificate is
/// checked, as ffmpeg and mpv take them.
struct NetworkInputOptions: ParsableArguments {
    @Option(name: .customLong("rtsp-transport"), help: ArgumentHelp("RTSP: receive RTP over udp, or interleaved in the RTSP connection (tcp); by default udp, then tcp if the server refuses it.",
                                                                    valueName: "udp|tcp"))
    var rtspTransport: String?

    @Option(help: "The user name a server asks for (or user:password@ in the URL).")
    var user: String?

    @Option(help: "The password a server asks for, with --user.")
    var password: String?

    @Flag(help: "Play an http(s) URL as a WHEP endpoint (WebRTC), as whep+https://… or a URL ending in /whep are played.")
    var whep = false

    @Option(name: .customLong("whep-token"), help: ArgumentHelp("The bearer token a WHEP endpoint asks for.", valueName: "token"))
    var whepToken: String?

    @Option(name: .customLong("webrtc-latency"), help: ArgumentHelp("WebRTC: how long the jitter buffer holds packets for late and retransmitted ones; every picture waits this long.",
                                                                    valueName: "seconds"))
    var webRTCLatency: Double = Player.Configuration().webRTCLatency

    @Flag(name: .customLong("tls-verify"), inversion: .prefixedNo,
          help: "Check a TLS server's certificate (https, rtmps, rtsps; a stream's segments too) against the trusted authorities and the URL's host; --no-tls-verify takes any, as curl -k.")
    var tlsVerify = true

    @Option(name: .customLong("tls-ca-file"), help: ArgumentHelp("Trust the authorities in this PEM file instead of the system's.", valueName: "file"))
    var tlsCAFile: String?

    func validate() throws {
        if let tlsCAFile, !FileManager.default.isReadableFile(atPath: tlsCAFile) { throw ValidationError("--tls-ca-file: cannot read '\(tlsCAFile)'") }
        if tlsCAFile != nil && !tlsVerify { throw ValidationError("--tls-ca-file goes with checking certificates, not --no-tls-verify") }
        if let rtspTransport, !["udp", "tcp"].contains(rtspTransport) { throw ValidationError("--rtsp-transport takes udp or tcp (got \(rtspTransport))") }
        if password != nil && user == nil { throw ValidationError("--password goes with --user") }
        guard webRTCLatency >= 0, webRTCLatency <= 10 else { throw ValidationError("--webrtc-latency takes seconds from 0 to 10 (got \(webRTCLatency))") }
    }

    /// `url` with the credentials in it (or named a WHEP endpoint, with --whep), and
    /// `options` with the transport.
    func apply(to url: String, options: inout DemuxOptions) -> String {
        if let rtspTransport { options.formatOptions["rtsp_transport"] = rtspTransport }
        options.tls = TLSVerification(isOn: tlsVerify, authorities: tlsCAFile)
        let lowered = url.lowercased()
        if whep, lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return "whep+" + url }
        return Self.url(url, user: user, password: password)
    }

    /// The WebRTC settings of `configuration`.
    func apply(to configuration: inout Player.Configuration) {
        configuration.whepToken = whepToken
        configuration.webRTCLatency = webRTCLatency
    }

    /// `scheme://user:password@host…` from `scheme://host…`, percent-encoded; a URL that
    /// names a user already, or has no scheme, is left as it is.
    static func url(_ url: String, user: String?, password: String?) -> String {
        guard let user, let schemeEnd = url.range(of: "://") else { return url }
        let authority = url[schemeEnd.upperBound...].prefix { $0 != "/" }
        guard !authority.contains("@") else { return url }
        var allowed = CharacterSet.urlUserAllowed
        allowed.remove(charactersIn: ":@/")
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        let credentials = encode(user) + (password.map { ":" + encode($0) } ?? "")
        return String(url[..<schemeEnd.upperBound]) + credentials + "@" + String(url[schemeEnd.upperBound...])
    }
}
