/// How a TLS server's certificate is checked (https, rtmps, rtsps; an adaptive stream's
/// segments too), the same through either engine, as mpv's `--tls-verify` and
/// `--tls-ca-file`.
public struct TLSVerification: Sendable, Equatable {
    /// Whether the certificate must be signed by a trusted authority and name the URL's
    /// host. On by default (FFmpeg alone does not check); off, as `curl -k`, for a camera
    /// with a certificate of its own making.
    public var isOn: Bool
    /// A PEM file of the authorities to trust instead of the system's (`/etc/ssl/certs`):
    /// a private CA's streams. Through the GStreamer engine it is trusted by the whole
    /// process from then on (GIO's default database, which GStreamer's downloads check).
    public var authorities: String?

    /// Checks as given; by default against the system's authorities.
    public init(isOn: Bool = true, authorities: String? = nil) {
        self.isOn = isOn
        self.authorities = authorities
    }
}
