import Foundation
import CSocket
import Glibc
import ReelCore
import ReelFFmpeg

/// A UDP socket that sends a talk-back stream from the client port SETUP named to the
/// camera's server port (a camera may take its back-channel only from the port agreed).
final class TalkDatagramSocket: @unchecked Sendable {
    private let descriptor: Int32
    /// Whether the descriptor is open; sends hold it, so that a close never comes between.
    private let open = LockedValue(true)

    init(localPort: Int, host: String, port: Int) throws {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let info = found, let address = info.pointee.ai_addr else {
            throw RTPError("cannot resolve the camera \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(found) }
        let family = info.pointee.ai_family
        descriptor = socket(family, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw RTPError("cannot open a UDP socket: \(String(cString: strerror(errno)))") }
        var local = sockaddr_storage()
        let length: socklen_t
        if family == AF_INET6 {
            length = withUnsafeMutableBytes(of: &local) { raw in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                address.pointee.sin6_port = in_port_t(UInt16(localPort).bigEndian)
                return socklen_t(MemoryLayout<sockaddr_in6>.size)
            }
        } else {
            length = withUnsafeMutableBytes(of: &local) { raw in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                address.pointee.sin_family = sa_family_t(AF_INET)
                address.pointee.sin_port = in_port_t(UInt16(localPort).bigEndian)
                return socklen_t(MemoryLayout<sockaddr_in>.size)
            }
        }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        let connected = bound == 0 ? Glibc.connect(descriptor, address, info.pointee.ai_addrlen) : -1
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw RTPError("cannot send to the camera's back-channel port \(port) from port \(localPort): \(reason)")
        }
    }

    func send(_ packet: [UInt8]) throws {
        let failure = open.withLock { open -> Int32? in
            guard open else { return nil }
            let written = packet.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            return written < 0 ? errno : nil
        }
        // A camera not listening yet answers with ICMP (ECONNREFUSED on the next send): talk on.
        if let failure, failure != ECONNREFUSED, failure != EINTR, failure != EAGAIN {
            throw RTPError("cannot send talk-back audio: \(String(cString: strerror(failure)))")
        }
    }

    deinit { close() }

    func close() {
        open.withLock { open in
            if open { Glibc.close(descriptor) }
            open = false
        }
    }
}
