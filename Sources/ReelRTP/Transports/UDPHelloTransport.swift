import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ReelCore

/// The seed's UDP unicast: the client sends "hello" to the server from the port it
/// receives on, so NATs let the stream back in, and a heartbeat on a timer so the server
/// knows it is still there. The timer runs whether or not packets arrive: a stalled
/// server sees heartbeats and can resume (the seed's player stopped sending when the
/// stream stopped, so it never came back).
final class UDPHelloTransport: RTPTransport {
    let server: String, port: Int, localPort: Int
    let hello: [UInt8], heartbeat: [UInt8]
    let interval: Double
    private let state = NIOLockedValueBox<(channel: Channel?, timer: RepeatedTask?, server: SocketAddress?)>((nil, nil, nil))

    init(server: String, port: Int, localPort: Int, hello: [UInt8], heartbeat: [UInt8], interval: Double) {
        self.server = server
        self.port = port
        self.localPort = localPort
        self.hello = hello
        self.heartbeat = heartbeat
        self.interval = interval
    }

    func start(deliver: @escaping @Sendable (ReceivedDatagram) -> Void, closed: @escaping @Sendable (Error?) -> Void) async throws {
        let serverAddress = try SocketAddress.makeAddressResolvingHost(server, port: port)
        let local = serverAddress.protocol == .inet6 ? "::" : "0.0.0.0"
        let channel = try await UDPSockets.bind(address: local, port: localPort) { bytes in
            deliver(ReceivedDatagram(bytes: bytes, onControlPort: false))
        }
        let hello = hello, heartbeat = heartbeat
        channel.writeAndFlush(AddressedEnvelope(remoteAddress: serverAddress, data: ByteBuffer(bytes: hello)), promise: nil)
        let period = TimeAmount.nanoseconds(Int64(max(0.01, interval) * 1e9))
        let timer = channel.eventLoop.scheduleRepeatedTask(initialDelay: period, delay: period) { _ in
            channel.writeAndFlush(AddressedEnvelope(remoteAddress: serverAddress, data: ByteBuffer(bytes: heartbeat)), promise: nil)
        }
        state.withLockedValue { $0 = (channel, timer, serverAddress) }
    }

    func sendControl(_ bytes: [UInt8]) {
        let (channel, server) = state.withLockedValue { ($0.channel, $0.server) }
        guard let channel, let server else { return }
        channel.writeAndFlush(AddressedEnvelope(remoteAddress: server, data: ByteBuffer(bytes: bytes)), promise: nil)
    }

    func stop() async {
        let (channel, timer) = state.withLockedValue { state in
            defer { state = (nil, nil, nil) }
            return (state.channel, state.timer)
        }
        timer?.cancel()
        try? await channel?.close()
    }
}
