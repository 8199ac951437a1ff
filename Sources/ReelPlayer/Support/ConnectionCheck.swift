import Foundation
import ReelCore
import ReelFFmpeg

/// Whether anything listens at a network URL's address: asked when an engine failed to
/// open a URL without saying why (GStreamer's HTTP source reports a refused connection
/// only as a stopped data flow).
enum ConnectionCheck {
    /// True when a TCP connection to `url`'s host and port (the scheme's default port when
    /// none is given) is refused; false when it connects, times out or cannot be tried.
    static func isRefused(_ url: String, timeout: Double = 1) -> Bool {
        guard let components = URLComponents(string: url), let host = components.host,
              let port = components.port ?? defaultPorts[components.scheme?.lowercased() ?? ""] else { return false }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found else { return false }
        defer { freeaddrinfo(found) }
        let socket = Glibc.socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        if connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return false }
        if errno == ECONNREFUSED { return true }
        guard errno == EINPROGRESS else { return false }
        var poller = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { return false }
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socket, SOL_SOCKET, SO_ERROR, &failure, &length)
        return failure == ECONNREFUSED
    }

    /// The FFmpeg engine's error for `url` when its server's certificate is refused as
    /// `tls` checks it (within `timeout`, 5 s at most); nil when it is taken, or the check
    /// fails for another reason.
    static func certificateFailure(_ url: String, tls: TLSVerification, timeout: Double?) -> InputError? {
        do {
            _ = try ResourceHead.read(url, limit: 1, options: probeOptions(tls: tls, timeout: timeout))
            return nil
        } catch {
            return error.reason == .untrustedCertificate ? error : nil
        }
    }

    /// The FFmpeg engine's error for the HLS playlist `url` when the server of its first
    /// segment (or of its first variant's first segment) refuses a certificate check as
    /// `tls` says; nil otherwise. GStreamer's adaptive demuxer says only that it could not
    /// download fragments.
    static func segmentCertificateFailure(_ url: String, tls: TLSVerification, timeout: Double?) -> InputError? {
        let options = probeOptions(tls: tls, timeout: timeout)
        var playlist = url
        for _ in 0..<2 {
            guard let head = try? ResourceHead.read(playlist, limit: 64 << 10, options: options),
                  let text = String(data: head, encoding: .utf8),
                  let next = EnginePolicy.firstURI(in: text, of: playlist) else { return nil }
            guard next.lowercased().contains(".m3u8") else {
                guard let refused = certificateFailure(next, tls: tls, timeout: timeout) else { return nil }
                return InputError(.untrustedCertificate, operation: .open, url: url, code: refused.code, detail: refused.detail)
            }
            playlist = next
        }
        return nil
    }

    /// A probe's options: the player's TLS checks, and its timeout up to 5 s.
    private static func probeOptions(tls: TLSVerification, timeout: Double?) -> DemuxOptions {
        var options = DemuxOptions(timeout: min(timeout ?? 5, 5))
        options.tls = tls
        return options
    }

    private static let defaultPorts = ["http": 80, "https": 443, "rtsp": 554, "rtmp": 1935]
}
