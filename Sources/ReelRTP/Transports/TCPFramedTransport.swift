import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ReelCore

/// Frames a byte stream into packets with a `LengthPrefixedFramer`.
final class FramedStreamHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private var framer: LengthPrefixedFramer
    private let deliver: @Sendable ([UInt8]) -> Void
    private let closed: @Sendable (Error?) -> Void

    init(lengthSize: Int, deliver: @escaping @Sendable ([UInt8]) -> Void, closed: @escaping @Sendable (Error?) -> Void) {
        framer = LengthPrefixedFramer(lengthSize: lengthSize)
        self.deliver = deliver
        self.closed = closed
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        framer.append(unwrapInboundIn(data).readableBytesView)
        do {
            while let packet = try framer.next() { deliver(packet) }
        } catch {
            closed(error)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) { closed(nil) }
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        closed(error)
        context.close(promise: nil)
    }
}

/// RTP and RTCP interleaved on one TCP connection to the sender (RFC 4571); receiver
/// reports go back on the same connection.
final class TCPFramedTransport: RTPTransport {
    let host: String, port: Int
    private let channel = NIOLockedValueBox<Channel?>(nil)

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    func start(deliver: @escaping @Sendable (ReceivedDatagram) -> Void, closed: @escaping @Sendable (Error?) -> Void) async throws {
        let connected = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(FramedStreamHandler(lengthSize: 2, deliver: {
                        deliver(ReceivedDatagram(bytes: $0, onControlPort: false))
                    }, closed: closed))
                }
            }
            .connect(host: host, port: port)
            .get()
        channel.withLockedValue { $0 = connected }
    }

    func sendControl(_ bytes: [UInt8]) {
        channel.withLockedValue { $0 }?.writeAndFlush(ByteBuffer(bytes: LengthPrefixedFramer.frame(bytes, lengthSize: 2)), promise: nil)
    }

    func stop() async {
        let current = channel.withLockedValue { channel in
            defer { channel = nil }
            return channel
        }
        try? await current?.close()
    }
}
