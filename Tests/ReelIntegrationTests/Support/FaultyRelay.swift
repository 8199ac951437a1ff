import Foundation
import ReelCore

/// A TCP relay on loopback in front of a real server (nginx), whose behaviour a test
/// switches while a player is connected through it, to make the server's faults on demand:
/// going silent with the connection open, sending garbage, closing mid-stream; or a link of
/// limited bandwidth.
final class FaultyRelay: @unchecked Sendable {
    enum Behaviour: Sendable {
        /// Bytes pass both ways.
        case forwarding
        /// Connections stay open and new ones are accepted, but nothing is said on them.
        case silent
        /// Each client is sent random bytes in place of the server's.
        case garbage
    }

    let port: UInt16
    private let upstreamPort: UInt16
    private let listener: SilentServer.Socket
    private let lock = NSLock()
    private var behaviour: Behaviour = .forwarding
    private var pairs: [(client: Int32, server: Int32)] = []
    private var stopped = false
    private var failures: [String] = []

    /// Why the relay itself ended connections (a failed connect, read or write, with its
    /// errno), rather than one of the two ends closing.
    var relayFailures: [String] { lock.withLock { failures } }

    private func noteFailure(_ what: String) {
        let reason = "\(what): \(String(cString: strerror(errno)))"
        lock.withLock { failures.append(reason) }
    }

    init(to upstreamPort: UInt16) throws {
        self.upstreamPort = upstreamPort
        listener = try SilentServer.Socket.listening()
        port = listener.port
        Thread { [self] in acceptConnections() }.start()
    }

    func set(_ new: Behaviour) {
        lock.withLock { behaviour = new }
    }

    /// The link's capacity towards the clients, shared by every connection (bits/s); nil
    /// for none. Bytes are sent when the link would have carried the ones before them.
    func limit(bitsPerSecond: Int?) {
        lock.withLock {
            capacity = bitsPerSecond.map { Double($0) }
            linkFreeAt = monotonicSeconds()
        }
    }
    private var capacity: Double?
    private var linkFreeAt = 0.0

    /// Called on a relay thread with the path of each HTTP GET a client sends, in order.
    func observeRequests(_ observer: @escaping @Sendable (String) -> Void) {
        lock.withLock { requestObserver = observer }
    }
    private var requestObserver: (@Sendable (String) -> Void)?

    /// The paths of the GET request lines in `bytes` (a client's requests are small, so
    /// each comes whole in one read).
    private static func requestedPaths(_ bytes: ArraySlice<UInt8>) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").compactMap { line in
            let words = line.split(separator: " ")
            return words.count == 3 && words[0] == "GET" ? String(words[1]) : nil
        }
    }

    /// Closes every connection open now, as a server that drops its clients does; later
    /// ones are relayed as before.
    func closeConnections() {
        // Under the lock: a pump closes its descriptors only after taking its pair out.
        lock.withLock {
            for pair in pairs {
                shutdown(pair.client, Int32(SHUT_RDWR))
                shutdown(pair.server, Int32(SHUT_RDWR))
            }
        }
    }

    /// Once: a second close would close whatever descriptor took the listener's number
    /// (the deinit comes after a test's own `stop()`, once the accept thread lets go).
    func stop() {
        let wasStopped = lock.withLock {
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        shutdown(listener.descriptor, Int32(SHUT_RDWR))
        close(listener.descriptor)
        closeConnections()
    }

    deinit { stop() }

    private func acceptConnections() {
        while true {
            let client = accept(listener.descriptor, nil, nil)
            if client < 0 {
                // A signal (a child process of another test ending) is not the listener's end.
                if errno == EINTR { continue }
                return
            }
            guard let server = connectUpstream() else {
                noteFailure("connecting to the server")
                close(client)
                continue
            }
            lock.withLock { pairs.append((client, server)) }
            Thread { [self] in pump(from: server, to: client, towardsClient: true) }.start()
            Thread { [self] in pump(from: client, to: server, towardsClient: false) }.start()
        }
    }

    private func connectUpstream() -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = upstreamPort.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if connected == 0 { return descriptor }
        if errno == EINTR {
            // Interrupted, the connection goes on being made: wait for it and read its outcome.
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if poll(&poller, 1, 5000) == 1, getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 { return descriptor }
        }
        close(descriptor)
        return nil
    }

    /// Copies `source` into `destination` while forwarding; holds what it reads while
    /// silent (dropped, as a stalled server never sends it), and writes random bytes
    /// towards the client instead when asked for garbage. Ends when either side closes.
    private func pump(from source: Int32, to destination: Int32, towardsClient: Bool) {
        defer {
            // The first of the pair's two pumps to end wakes the other, which may have
            // closed its own descriptor (this one's destination) by the time it ends.
            lock.withLock {
                if pairs.contains(where: { $0.client == source || $0.server == source }) {
                    pairs.removeAll { $0.client == source || $0.server == source }
                    shutdown(destination, Int32(SHUT_RDWR))
                }
            }
            close(source)
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        var generator = SystemRandomNumberGenerator()
        while true {
            var poller = pollfd(fd: source, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 50)
            let (current, ended) = lock.withLock { (behaviour, stopped) }
            if ended { return }
            if towardsClient && current == .garbage {
                let noise = (0..<1024).map { _ in UInt8.random(in: 0...255, using: &generator) }
                guard noise.withUnsafeBytes({ send(destination, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 else { return }
            }
            guard ready > 0 else { continue }
            // Limited, a read takes at most 20 ms of the link's capacity.
            let chunk = towardsClient ? lock.withLock { capacity.map { max(Int($0 / 8 / 50), 1024) } } ?? buffer.count : buffer.count
            let count = read(source, &buffer, min(chunk, buffer.count))
            if count < 0 && errno == EINTR { continue }
            if count < 0 { noteFailure("reading from the \(towardsClient ? "server" : "client")") }
            if count <= 0 { return }
            guard current == .forwarding else { continue }
            if !towardsClient, let observer = lock.withLock({ requestObserver }) {
                Self.requestedPaths(buffer[..<count]).forEach(observer)
            }
            if towardsClient, let sendAt = lock.withLock({ () -> Double? in
                guard let capacity else { return nil }
                let start = max(linkFreeAt, monotonicSeconds())
                linkFreeAt = start + Double(count * 8) / capacity
                return start
            }) {
                let wait = sendAt - monotonicSeconds()
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            }
            var written = 0
            while written < count {
                let sent = buffer.withUnsafeBytes { send(destination, $0.baseAddress! + written, count - written, Int32(MSG_NOSIGNAL)) }
                if sent < 0 && errno == EINTR { continue }
                if sent <= 0 {
                    noteFailure("writing to the \(towardsClient ? "client" : "server")")
                    return
                }
                written += sent
            }
        }
    }
}
