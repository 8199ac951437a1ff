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

    func stop() async { client.stop() }
}
