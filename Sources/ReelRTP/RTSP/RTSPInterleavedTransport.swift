import Foundation
import ReelCore

/// RTP and RTCP interleaved in an RTSP connection (RFC 2326 10.12): the client's reading
/// thread hands the packets on once playing; receiver reports go back on the connection.
final class RTSPInterleavedTransport: RTPTransport {
    let client: RTSPClient
    private let handOn = LockedValue<(@Sendable (ReceivedDatagram) -> Void)?>(nil)

    init(client: RTSPClient) { self.client = client }

    func start(deliver: @escaping @Sendable (ReceivedDatagram) -> Void, closed: @escaping @Sendable (Error?) -> Void) async throws {
        handOn.withLock { $0 = deliver }
    }

    /// Where the client's reading thread delivers the packets.
    func deliver(_ datagram: ReceivedDatagram) {
        handOn.withLock { $0 }?(datagram)
    }

    func sendControl(_ bytes: [UInt8]) { client.sendControl(bytes) }

    /// Lets go of the receiver's closure too: it holds the receiver, which holds this
    /// transport (a reconnect left one connection's descriptor open each time).
    func stop() async {
        handOn.withLock { $0 = nil }
        client.stop()
    }
}
