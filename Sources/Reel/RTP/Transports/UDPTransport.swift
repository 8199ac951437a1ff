import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ReelCore

/// Hands each datagram to a closure, with the address it came from.
final class DatagramHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    let deliver: @Sendable ([UInt8], SocketAddress) -> Void

    init(deliver: @escaping @Sendable ([UInt8], SocketAddress) -> Void) { self.deliver = deliver }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        deliver(Array(envelope.data.readableBytesView), envelope.remoteAddress)
    }
}

enum UDPSockets {
    /// The receive buffer asked of the kernel (it caps it at net.core.rmem_max).
    static let receiveBufferSize: SocketOptionValue = 8 << 20

    static func bind(address: String, port: Int, deliver: @escaping @Sendable ([UInt8], SocketAddress) -> Void) async throws -> Channel {
        try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelOption(.socketOption(.so_rcvbuf), value: receiveBufferSize)
            // Datagrams up to UDP's limit, several per system call.
            .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 65_536))
            .channelOption(.datagramVectorReadMessageCount, value: 8)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(DatagramHandler(deliver: deliver)) }
            }
            .bind(host: address, port: port)
            .get()
    }
}

/// Plain UDP: RTP on `port`, RTCP on `port + 1`; receiver reports go back to the address
/// sender reports came from.
final class UDPTransport: RTPTransport {
    let address: String
    let port: Int
    private let state = NIOLockedValueBox<(channels: [Channel], controlPeer: SocketAddress?)>(([], nil))

    init(address: String, port: Int) {
        self.address = address
        self.port = port
    }

    func start(deliver: @escaping @Sendable (ReceivedDatagram) -> Void, closed: @escaping @Sendable (Error?) -> Void) async throws {
        let local = Self.listeningAddress(for: address)
        let media = try await UDPSockets.bind(address: local, port: port) { bytes, _ in deliver(ReceivedDatagram(bytes: bytes, onControlPort: false)) }
        state.withLockedValue { $0.channels.append(media) }
        // RTCP is optional: a port taken by someone else does not stop the video.
        if port < 65535, let control = try? await UDPSockets.bind(address: local, port: port + 1, deliver: { [state] bytes, from in
            state.withLockedValue { $0.controlPeer = from }
            deliver(ReceivedDatagram(bytes: bytes, onControlPort: true))
        }) {
            state.withLockedValue { $0.channels.append(control) }
        }
    }

    /// A unicast destination is bound as it is; a multicast group is received on the wildcard address.
    static func listeningAddress(for address: String) -> String {
        if let first = address.split(separator: ".").first.flatMap({ Int($0) }), (224...239).contains(first) { return "0.0.0.0" }
        if address.lowercased().hasPrefix("ff") { return "::" }
        return address
    }

    func sendControl(_ bytes: [UInt8]) {
        let (channels, peer) = state.withLockedValue { ($0.channels, $0.controlPeer) }
        guard channels.count > 1, let peer else { return }
        channels[1].writeAndFlush(AddressedEnvelope(remoteAddress: peer, data: ByteBuffer(bytes: bytes)), promise: nil)
    }

    func stop() async {
        let channels = state.withLockedValue { state in
            defer { state.channels = [] }
            return state.channels
        }
        for channel in channels { try? await channel.close() }
    }
}
