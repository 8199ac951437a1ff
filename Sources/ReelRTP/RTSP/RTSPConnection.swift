import CSocket
import Foundation
import ReelCore

/// Why an RTSP connection failed, before it is put in a player's words.
enum RTSPConnectionError: Error, CustomStringConvertible {
    case refused
    case timedOut
    case closed
    case failed(String)

    var description: String {
        switch self {
        case .refused: "connection refused"
        case .timedOut: "no answer in time"
        case .closed: "the server closed the connection"
        case .failed(let message): message
        }
    }
}

/// The TCP connection to an RTSP server, on a plain socket with poll timeouts: requests
/// written (from any thread, one at a time), responses and interleaved packets read by
/// one thread at a time.
final class RTSPConnection: @unchecked Sendable {
    let descriptor: Int32
    private let writing = NSLock()
    /// Owned by the reading thread.
    private var parser = RTSPConnectionParser()
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    private let closed = LockedValue(false)

    /// Connects to `host` (a name, IPv4 or IPv6) and `port` within `timeout` seconds.
    init(host: String, port: Int, timeout: Double) throws(RTSPConnectionError) {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let info = found, let address = info.pointee.ai_addr else {
            throw .failed("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(found) }
        descriptor = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .failed("cannot open a TCP socket: \(String(cString: strerror(errno)))") }
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        if connect(descriptor, address, info.pointee.ai_addrlen) != 0 && errno != EINPROGRESS {
            let error = errno
            _ = Glibc.close(descriptor)
            throw error == ECONNREFUSED ? .refused : .failed("cannot connect: \(String(cString: strerror(error)))")
        }
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&entry, 1, Int32(min(timeout, 3600) * 1000))
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
        guard ready == 1, error == 0 else {
            _ = Glibc.close(descriptor)
            if ready == 0 { throw .timedOut }
            throw error == ECONNREFUSED ? .refused : .failed("cannot connect: \(String(cString: strerror(error)))")
        }
    }

    deinit { _ = Glibc.close(descriptor) }

    /// Writes `bytes` whole, waiting up to `timeout` seconds for room.
    func send(_ bytes: [UInt8], timeout: Double = 5) throws(RTSPConnectionError) {
        writing.lock()
        defer { writing.unlock() }
        var offset = 0
        let deadline = monotonicSeconds() + timeout
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 { offset += written; continue }
            guard written < 0, errno == EAGAIN || errno == EINTR else { throw .closed }
            guard wait(for: Int16(POLLOUT), until: deadline) else { throw .timedOut }
        }
    }

    /// The next response or interleaved packet, waiting until `deadline` (monotonic
    /// seconds); throws at the deadline, at the end of the stream, or for bytes that are
    /// not RTSP.
    func next(until deadline: Double) throws(RTSPConnectionError) -> RTSPConnectionItem {
        while true {
            do {
                if let item = try parser.next() { return item }
            } catch {
                throw .failed(error.description)
            }
            let count = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                parser.append(scratch[0..<count])
            } else if count == 0 {
                throw .closed
            } else if errno == EAGAIN || errno == EINTR {
                guard wait(for: Int16(POLLIN), until: deadline) else { throw .timedOut }
            } else {
                throw closed.withLock({ $0 }) ? .closed : .failed("cannot read: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The response to request `sequence`, skipping what comes before it.
    func response(to sequence: Int, until deadline: Double) throws(RTSPConnectionError) -> RTSPResponse {
        while true {
            if case .response(let response) = try next(until: deadline), response.sequence == sequence || response.sequence == nil {
                return response
            }
        }
    }

    /// Waits (in short polls, so that `close` is seen) until the socket is ready for `events`.
    private func wait(for events: Int16, until deadline: Double) -> Bool {
        while !closed.withLock({ $0 }) {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { return false }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            if poll(&entry, 1, Int32(min(200, (left * 1000).rounded(.up)))) > 0 { return true }
        }
        return true
    }

    /// Ends the connection; a thread blocked reading it wakes with `.closed`. The
    /// descriptor itself is closed when the last user lets go, so that no thread reads a
    /// number the system has given to another socket.
    func close() {
        closed.withLock { $0 = true }
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
