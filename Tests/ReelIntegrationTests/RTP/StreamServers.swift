import Foundation
import ReelCore

/// Servers the transport tests start on loopback, each serving RTP packets caught from ffmpeg.
enum StreamServers {
    /// Accepts one TCP connection and hands it to `serve`.
    final class OneConnection: @unchecked Sendable {
        let port: Int
        private let listener: SilentServer.Socket

        init(_ serve: @escaping @Sendable (Int32) -> Void) throws {
            listener = try SilentServer.Socket.listening()
            port = Int(listener.port)
            let descriptor = listener.descriptor
            Thread {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return }
                serve(connection)
                shutdown(connection, Int32(SHUT_RDWR))
                close(connection)
            }.start()
        }

        func stop() { listener.close() }
    }

    static func write(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// The packets, each behind its length, cut into pieces of random sizes (so lengths and
    /// packets straddle the pieces).
    static func pieces(of packets: [[UInt8]], lengthSize: Int, seed: UInt64) -> [[UInt8]] {
        var stream: [UInt8] = []
        for packet in packets {
            stream += (0..<lengthSize).reversed().map { UInt8(truncatingIfNeeded: packet.count >> (8 * $0)) } + packet
        }
        var generator = SeededGenerator(seed: seed)
        var pieces: [[UInt8]] = []
        var offset = 0
        while offset < stream.count {
            let size = min(stream.count - offset, Int.random(in: 1...3000, using: &generator))
            pieces.append(Array(stream[offset..<offset + size]))
            offset += size
        }
        return pieces
    }

    /// The seed's HTTP progressive server: `200 OK`, chunked, the framed packets paced.
    static func http(packets: [[UInt8]]) throws -> OneConnection {
        try OneConnection { connection in
            var request: [UInt8] = []
            var byte: UInt8 = 0
            while recv(connection, &byte, 1, 0) == 1 {
                request.append(byte)
                if request.suffix(4) == Array("\r\n\r\n".utf8) { break }
            }
            guard String(decoding: request, as: UTF8.self).hasPrefix("GET /streams/") else {
                _ = write(Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8), to: connection)
                return
            }
            _ = write(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: video/rtp\r\n\r\n".utf8), to: connection)
            for piece in pieces(of: packets, lengthSize: 4, seed: 3) {
                guard write(Array((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Array("\r\n".utf8), to: connection) else { return }
                usleep(3_000)
            }
            _ = write(Array("0\r\n\r\n".utf8), to: connection)
        }
    }

    /// RFC 4571: the framed packets on a TCP connection, then the end of the connection.
    static func tcp(packets: [[UInt8]]) throws -> OneConnection {
        try OneConnection { connection in
            for piece in pieces(of: packets, lengthSize: 2, seed: 5) {
                guard write(piece, to: connection) else { return }
                usleep(3_000)
            }
        }
    }

    /// The seed's UDP unicast server: waits for "hello", streams to where it came from,
    /// stalls halfway for `stall` seconds, then goes on; counts the heartbeats it hears.
    final class HelloServer: @unchecked Sendable {
        let socket: UDPSocket
        private let lock = NSLock()
        private var heartbeats: [Double] = []
        private(set) var firstMessage: String?
        private(set) var stalled: ClosedRange<Double>?
        private let done = DispatchSemaphore(value: 0)

        init(packets: [[UInt8]], stall: Double) throws {
            socket = try UDPSocket()
            Thread { [self] in serve(packets, stall: stall) }.start()
        }

        private func serve(_ packets: [[UInt8]], stall: Double) {
            guard let hello = socket.receive(timeout: 20) else {
                done.signal()
                return
            }
            lock.withLock { firstMessage = String(decoding: hello.bytes, as: UTF8.self) }
            let client = hello.from
            let listener = Thread { [self] in
                while let message = socket.receive(timeout: 3) {
                    if message.bytes == Array("heartbeat".utf8) { lock.withLock { heartbeats.append(monotonicSeconds()) } }
                }
            }
            listener.start()
            for (index, packet) in packets.enumerated() {
                if index == packets.count / 2 {
                    let start = monotonicSeconds()
                    Thread.sleep(forTimeInterval: stall)
                    lock.withLock { stalled = start...monotonicSeconds() }
                }
                socket.send(packet, to: client)
                usleep(2_000)
            }
            done.signal()
        }

        func waitUntilSent() { done.wait() }

        var heartbeatsDuringStall: Int {
            lock.withLock { stalled.map { range in heartbeats.filter { range.contains($0) }.count } ?? 0 }
        }
    }
}

