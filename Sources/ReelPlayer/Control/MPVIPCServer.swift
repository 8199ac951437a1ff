import Foundation
import ReelCore
import ReelFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// mpv's JSON IPC server (`--input-ipc-server`): a Unix socket at a path, where any number
/// of clients send mpv's commands, one JSON object per line, and receive replies and
/// events, so that scripts and remotes written for mpv drive a ``Player``.
///
/// The owner hands the player's events to ``forward(_:)`` (a player has one event stream)
/// and calls ``close()`` when it ends. Each client has a thread that reads it; a client
/// that stops reading for 2 s is dropped rather than holding the player's events up.
public final class MPVIPCServer: @unchecked Sendable {
    /// The socket's path.
    public let path: String
    private let target: PlayerMPVTarget
    private let listener: Int32
    private let lock = NSLock()
    private var clients: [Client] = []
    private var clientsMade = 0
    private var mapper = MPVEventMapper()
    private var closed = false
    /// `end-file`'s reason when the player stops: `quit` or `stop` as a client asked.
    private let stopReason: LockedValue<String>

    /// Listens at `path` (a file there is replaced, as mpv replaces it).
    /// - Parameters:
    ///   - makeGift: makes the animations of `gift-start` (see ``PlayerMPVTarget``).
    ///   - onQuit: called for the `quit` (with its exit code) and `stop` commands; the
    ///     owner stops the player, which ends the session.
    public init(path: String, player: Player, makeGift: (@Sendable (OverlayRequest) throws -> any OverlayAnimation)? = nil,
                onQuit: @escaping @Sendable (_ code: Int) -> Void) throws(OutputError) {
        self.path = path
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw OutputError(path, "a socket path is 1 to \(MemoryLayout.size(ofValue: address.sun_path) - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw OutputError(path, "cannot make a socket: \(String(cString: strerror(errno)))") }
        unlink(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(listener)
            throw OutputError(path, "cannot listen there: \(reason)")
        }
        self.listener = listener
        let stopReason = LockedValue("stop")
        self.stopReason = stopReason
        target = PlayerMPVTarget(player: player, makeGift: makeGift) { code, reason in
            stopReason.withLock { $0 = reason }
            onQuit(code)
        }
        Thread.detachNewThread { [self] in acceptClients() }
    }

    /// Whether a `loadfile` is opening its input: the player passes through `idle` on the
    /// way, which is then not the end of the session.
    public var isLoading: Bool { target.isLoading }

    /// Sends the clients the mpv events that `event` makes, and the changes of the
    /// properties they observe.
    public func forward(_ event: PlayerEvent) {
        let reason = stopReason.withLock { $0 }
        let (events, clients) = lock.withLock { () -> ([MPVEventMapper.Event], [Client]) in
            mapper.stopReason = reason
            return (mapper.events(for: event), self.clients)
        }
        for client in clients {
            client.send { session in events.compactMap { session.event($0.name, $0.fields) } + session.propertyChanges() }
        }
    }

    /// Ends the file still open (`end-file`), says `shutdown` to every client, closes them
    /// and the socket, and removes its file.
    public func close() {
        let reason = stopReason.withLock { $0 }
        let ending = lock.withLock { () -> (clients: [Client], events: [MPVEventMapper.Event])? in
            guard !closed else { return nil }
            closed = true
            defer { clients = [] }
            mapper.stopReason = reason
            return (clients, mapper.events(for: .stateChanged(.idle)) + [("shutdown", [:])])
        }
        guard let ending else { return }
        for client in ending.clients {
            client.send { session in ending.events.compactMap { session.event($0.name, $0.fields) } }
            client.hangUp()
        }
        shutdown(listener, Int32(SHUT_RDWR))
        unlink(path)
    }

    deinit {
        Glibc.close(listener)
    }

    private func acceptClients() {
        while true {
            let descriptor = accept(listener, nil, nil)
            if descriptor < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let client = lock.withLock { () -> Client? in
                guard !closed else { return nil }
                defer { clientsMade += 1 }
                let session = MPVIPCSession(target: target, clientName: "ipc-\(clientsMade)") {
                    Int(DispatchTime.now().uptimeNanoseconds / 1000)
                }
                let client = Client(descriptor: descriptor, session: session)
                clients.append(client)
                return client
            }
            guard let client else {
                Glibc.close(descriptor)
                return
            }
            Thread.detachNewThread { [self] in
                client.readRequests()
                lock.withLock { clients.removeAll { $0 === client } }
            }
        }
    }

    /// One connection: its protocol state and its socket, under one lock, so that a
    /// reply and an event never interleave and a write never meets a closed descriptor.
    final class Client: @unchecked Sendable {
        private let lock = NSLock()
        private var descriptor: Int32
        private let session: MPVIPCSession
        /// A line longer than this is no request (mpv's are a few hundred bytes).
        static let longestLine = 1 << 20

        init(descriptor: Int32, session: MPVIPCSession) {
            self.descriptor = descriptor
            self.session = session
        }

        /// Reads lines until the client hangs up, answering each; then closes.
        func readRequests() {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            // Only this thread closes it.
            let descriptor = lock.withLock { self.descriptor }
            reading: while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                pending.append(contentsOf: buffer[..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    // mpv ends a line at a 0 byte too.
                    let line = pending[..<newline].prefix { $0 != 0 }
                    let text = String(decoding: line, as: UTF8.self)
                    pending.removeSubrange(...newline)
                    send { $0.handle(line: text) }
                }
                if pending.count > Self.longestLine {
                    send { _ in [#"{"error":"invalid parameter","request_id":0}"#] }
                    break reading
                }
            }
            lock.withLock {
                Glibc.close(descriptor)
                self.descriptor = -1
            }
        }

        /// Writes the lines `make` returns, made and written under the client's lock.
        func send(_ make: (MPVIPCSession) -> [String]) {
            lock.withLock {
                guard descriptor >= 0 else { return }
                let lines = make(session)
                guard !lines.isEmpty else { return }
                let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
                var done = 0
                while done < bytes.count {
                    let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else {
                        // Gone, or not reading: its reader sees the end and closes.
                        shutdown(descriptor, Int32(SHUT_RDWR))
                        return
                    }
                    done += count
                }
            }
        }

        /// Ends the connection; the reader closes the descriptor.
        func hangUp() {
            lock.withLock { if descriptor >= 0 { shutdown(descriptor, Int32(SHUT_RDWR)) } }
        }
    }
}
