import NIOCore
import NIOPosix

/// Hands each datagram to a closure.
final class DatagramHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    let deliver: @Sendable ([UInt8]) -> Void

    init(deliver: @escaping @Sendable ([UInt8]) -> Void) { self.deliver = deliver }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deliver(Array(unwrapInboundIn(data).data.readableBytesView))
    }
}

/// The hello transport's socket: a SwiftNIO datagram channel, whose event loop also runs
/// the heartbeat timer.
enum UDPSockets {
    /// The receive buffer asked of the kernel (it caps it at net.core.rmem_max).
    static let receiveBufferSize: SocketOptionValue = 8 << 20

    static func bind(address: String, port: Int, deliver: @escaping @Sendable ([UInt8]) -> Void) async throws -> Channel {
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
