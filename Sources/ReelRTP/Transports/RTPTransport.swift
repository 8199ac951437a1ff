import Foundation
import ReelCore

/// How RTP packets reach the receiver.
public enum RTPTransportKind: Sendable, Equatable {
    /// Plain UDP on a local address and port (RTCP on the next port), IPv4 or IPv6.
    case udp(address: String, port: Int)
    /// UDP unicast behind NAT, as in the seed: the client sends `hello` to the server from
    /// its own port and then `heartbeat` every `interval` seconds, whether or not packets arrive.
    case udpHello(server: String, port: Int, localPort: Int = 0, hello: [UInt8] = Array("hello".utf8),
                  heartbeat: [UInt8] = Array("heartbeat".utf8), interval: Double = 1)
    /// RTP and RTCP over one TCP connection, each packet behind a 16-bit length (RFC 4571).
    case tcp(host: String, port: Int)
    /// An HTTP GET whose unbounded (chunked) body holds each packet behind a 32-bit length.
    case httpProgressive(url: String)
}

/// A datagram that arrived, and whether it came on the RTCP port.
struct ReceivedDatagram: Sendable {
    var bytes: [UInt8]
    var onControlPort: Bool
}

/// What every transport does: deliver packets, send RTCP back where it can, stop.
protocol RTPTransport: Sendable {
    /// Starts receiving; `closed` is called once if the transport ends on its own.
    func start(deliver: @escaping @Sendable (ReceivedDatagram) -> Void, closed: @escaping @Sendable (Error?) -> Void) async throws
    /// Sends an RTCP packet towards the sender, when the transport has a way back.
    func sendControl(_ bytes: [UInt8])
    func stop() async
}

enum RTPTransports {
    static func make(_ kind: RTPTransportKind) -> any RTPTransport {
        switch kind {
        case .udp(let address, let port): UDPTransport(address: address, port: port)
        case .udpHello(let server, let port, let localPort, let hello, let heartbeat, let interval):
            UDPHelloTransport(server: server, port: port, localPort: localPort, hello: hello, heartbeat: heartbeat, interval: interval)
        case .tcp(let host, let port): TCPFramedTransport(host: host, port: port)
        case .httpProgressive(let url): HTTPProgressiveTransport(url: url)
        }
    }
}
