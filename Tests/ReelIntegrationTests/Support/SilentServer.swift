import Foundation

/// A TCP server on loopback that accepts connections and never says a word: the
/// worst kind of peer for a blocking read.
final class SilentServer: @unchecked Sendable {
    let port: UInt16
    private let socketDescriptor: Int32
    /// Connections open now; each is closed by its reader thread.
    private var open: Set<Int32> = []
    private var acceptedTotal = 0
    private let lock = NSLock()

    /// What happened on the server, with when it happened (the server's own threads note the
    /// time: a waiter may resume much later on a loaded machine).
    enum Event: Sendable, Equatable {
        case accepted(at: Date)
        /// A client closed its end of a connection.
        case hungUp(at: Date)
    }

    /// The server's events, in order, from its start (for one listener).
    let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation

    init() throws {
        let listener = try Socket.listening()
        socketDescriptor = listener.descriptor
        port = listener.port
        (events, continuation) = AsyncStream.makeStream()
        let thread = Thread { [self] in
            while true {
                let connection = accept(socketDescriptor, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    return
                }
                lock.withLock {
                    open.insert(connection)
                    acceptedTotal += 1
                }
                continuation.yield(.accepted(at: Date()))
                Thread { [self] in readUntilTheEnd(of: connection) }.start()
            }
        }
        thread.start()
    }

    /// Reads what a client sends, saying nothing, until it hangs up (or the server stops).
    private func readUntilTheEnd(of connection: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count > 0 || (count < 0 && errno == EINTR) { continue }
            if count == 0 { continuation.yield(.hungUp(at: Date())) }
            lock.withLock {
                open.remove(connection)
                close(connection)
            }
            return
        }
    }

    /// Connections accepted so far.
    var acceptedCount: Int { lock.withLock { acceptedTotal } }

    func stop() {
        shutdown(socketDescriptor, Int32(SHUT_RDWR))
        close(socketDescriptor)
        // Wakes the readers, which close their connections.
        lock.withLock { open.forEach { shutdown($0, Int32(SHUT_RDWR)) } }
        continuation.finish()
    }

    /// A listening socket on loopback, on `port` or, by default, a port of the system's choosing.
    struct Socket {
        let descriptor: Int32
        let port: UInt16

        static func listening(port: UInt16 = 0) throws -> Socket {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
            }
            guard bound == 0, listen(descriptor, 16) == 0 else {
                Glibc.close(descriptor)
                throw TestSetupError("cannot listen on loopback")
            }
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

    /// A port on loopback where nothing listens (bound, then released), below the kernel's
    /// ephemeral range (``LocalPorts``): a port of the system's choosing is one any process's
    /// next outgoing connection may take before the test's server binds it (a CI run: a
    /// ladder's server on such a port answered 404 for the playlist it had).
    static func unusedPort() throws -> UInt16 {
        for _ in 0..<100 {
            if let socket = try? Socket.listening(port: UInt16(LocalPorts.random())) {
                socket.close()
                return socket.port
            }
        }
        throw TestSetupError("no free port on loopback below the ephemeral range")
    }
}
