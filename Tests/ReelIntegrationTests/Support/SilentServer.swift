import Foundation

/// A TCP server on loopback that accepts connections and never says a word: the
/// worst kind of peer for a blocking read.
final class SilentServer: @unchecked Sendable {
    let port: UInt16
    private let socketDescriptor: Int32
    private var accepted: [Int32] = []
    private let lock = NSLock()

    init() throws {
        let listener = try Socket.listening()
        socketDescriptor = listener.descriptor
        port = listener.port
        let thread = Thread { [self] in
            while true {
                let connection = accept(socketDescriptor, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    return
                }
                lock.lock(); accepted.append(connection); lock.unlock()
            }
        }
        thread.start()
    }

    /// Connections accepted so far.
    var acceptedCount: Int {
        lock.lock(); defer { lock.unlock() }
        return accepted.count
    }

    /// Whether every client accepted has closed its end (a read finds the end of the stream).
    var clientsHaveHungUp: Bool {
        lock.withLock {
            var byte: UInt8 = 0
            return accepted.allSatisfy { recv($0, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0 }
        }
    }

    func stop() {
        shutdown(socketDescriptor, Int32(SHUT_RDWR))
        close(socketDescriptor)
        lock.lock(); accepted.forEach { close($0) }; lock.unlock()
    }

    /// A listening socket on loopback, on a port of the system's choosing.
    struct Socket {
        let descriptor: Int32
        let port: UInt16

        static func listening() throws -> Socket {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
            }
            guard bound == 0, listen(descriptor, 16) == 0 else { throw TestSetupError("cannot listen on loopback") }
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            return Socket(descriptor: descriptor, port: UInt16(bigEndian: address.sin_port))
        }

        func close() {
            shutdown(descriptor, Int32(SHUT_RDWR))
            Glibc.close(descriptor)
        }
    }

    /// A port on loopback where nothing listens (bound, then released).
    static func unusedPort() throws -> UInt16 {
        let server = try SilentServer()
        server.stop()
        return server.port
    }
}
