import Foundation

/// A blocking UDP socket on loopback for the tests' senders, relays and servers.
final class UDPSocket: @unchecked Sendable {
    let descriptor: Int32
    let port: Int

    init(port: Int = 0) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        self.descriptor = descriptor
        var size: Int32 = 8 << 20
        // Root may pass the system's cap; others get what rmem_max allows.
        if setsockopt(descriptor, SOL_SOCKET, SO_RCVBUFFORCE, &size, 4) != 0 { setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, 4) }
        var address = Self.loopback(port: port)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0 else { throw TestSetupError("cannot bind UDP port \(port)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        _ = bound
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// The next datagram and its sender, or nil after `timeout` seconds.
    func receive(timeout: Double) -> (bytes: [UInt8], from: sockaddr_in)? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var from = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = withUnsafeMutablePointer(to: &from) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(descriptor, &buffer, buffer.count, 0, $0, &length) }
        }
        guard count >= 0 else { return nil }
        return (Array(buffer.prefix(count)), from)
    }

    /// Whether the datagram went out.
    @discardableResult
    func send(_ bytes: [UInt8], to address: sockaddr_in) -> Bool {
        var destination = address
        return withUnsafePointer(to: &destination) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(descriptor, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == bytes.count
    }

    func close() { Glibc.close(descriptor) }
    deinit { close() }
}

extension RTPStreams {
    /// The RTP packets ffmpeg sends for `file`, caught on a local socket, and the SDP it wrote.
    static func captured(_ file: String, directory: URL) throws -> (packets: [[UInt8]], sdp: String) {
        let socket = try UDPSocket()
        let sdp = directory.appendingPathComponent("captured.sdp").path
        let sender = try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-c", "copy", "-f", "rtp", "-sdp_file", sdp, "rtp://127.0.0.1:\(socket.port)"])
        var packets: [[UInt8]] = []
        while let datagram = socket.receive(timeout: sender.isRunning ? 2 : 0.3) {
            packets.append(datagram.bytes)
        }
        sender.stop()
        guard packets.count > 50 else { throw TestSetupError("only \(packets.count) packets caught from ffmpeg") }
        return (packets, try String(contentsOfFile: sdp, encoding: .utf8))
    }
}
