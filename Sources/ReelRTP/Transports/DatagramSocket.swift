import CSocket
import Foundation
import ReelCore
import ReelFFmpeg

/// A bound UDP socket read in batches: one `recvmmsg` takes every datagram waiting (up to
/// `slots` a call), each with the kernel's arrival time, so a thread that wakes every few
/// milliseconds keeps exact arrival times for the jitter statistics. One wake and one
/// system call per packet cost more than the packet itself at 20 Mbit/s.
///
/// Reading and sending belong to one thread; `close()` comes after that thread is done,
/// from any thread, as often as it comes (a source that fails to open and is then released
/// closes twice, from two tasks).
final class DatagramSocket: @unchecked Sendable {
    static let slots = 32
    /// UDP's largest payload (65,507 bytes) fits a slot.
    static let slotSize = 65_536
    static let controlSize = 64
    /// The receive buffer asked of the kernel (SO_RCVBUFFORCE as root, else capped at net.core.rmem_max).
    static let receiveBufferSize: Int32 = 8 << 20

    let descriptor: Int32
    private let headers: UnsafeMutablePointer<reel_mmsghdr>
    private let vectors: UnsafeMutablePointer<iovec>
    private let names: UnsafeMutablePointer<sockaddr_storage>
    private let payloads: UnsafeMutableRawPointer
    private let controls: UnsafeMutableRawPointer
    /// Datagrams the kernel dropped because the socket's buffer was full, up to now (the
    /// count SO_RXQ_OVFL would attach only to a datagram queued after the drops).
    var kernelDrops: Int {
        openness.withLock { state in
            if state.open { state.drops = max(state.drops, reel_socket_drops(descriptor)) }
            return state.drops
        }
    }
    /// Whether the descriptor is open, and the drops counted when it was last asked.
    private let openness = LockedValue((open: true, drops: 0))
    /// Where the last datagram came from.
    private(set) var lastSender: (address: sockaddr_storage, length: socklen_t)?

    /// Binds `address` (IPv4 or IPv6; a multicast group is joined on the default
    /// interface) and `port`.
    init(address: String, port: Int) throws {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICSERV | AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address, String(port), &hints, &found)
        guard status == 0, let info = found, let boundAddress = info.pointee.ai_addr else {
            throw RTPError("cannot resolve \(address): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(found) }
        let family = info.pointee.ai_family
        descriptor = socket(family, Int32(SOCK_DGRAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw RTPError("cannot open a UDP socket: \(String(cString: strerror(errno)))") }
        headers = .allocate(capacity: Self.slots)
        vectors = .allocate(capacity: Self.slots)
        names = .allocate(capacity: Self.slots)
        payloads = .allocate(byteCount: Self.slots * Self.slotSize, alignment: 16)
        controls = .allocate(byteCount: Self.slots * Self.controlSize, alignment: 16)
        for slot in 0..<Self.slots {
            vectors[slot] = iovec(iov_base: payloads + slot * Self.slotSize, iov_len: Self.slotSize)
        }
        do {
            try setOption(SOL_SOCKET, SO_REUSEADDR, 1)
            if (try? setOption(SOL_SOCKET, SO_RCVBUFFORCE, Self.receiveBufferSize)) == nil {
                try setOption(SOL_SOCKET, SO_RCVBUF, Self.receiveBufferSize)
            }
            try setOption(SOL_SOCKET, SO_TIMESTAMPNS, 1)
            if family == AF_INET6 { try setOption(Int32(IPPROTO_IPV6), IPV6_V6ONLY, 0) }
            if Self.isMulticast(boundAddress, family: family) {
                // A group is received on the wildcard address of its family.
                var wildcard = sockaddr_storage()
                let length = Self.wildcard(&wildcard, family: family, port: port)
                try withUnsafeBytes(of: &wildcard) { try bind($0.baseAddress!.assumingMemoryBound(to: sockaddr.self), length) }
                try join(group: boundAddress, family: family)
            } else {
                try bind(boundAddress, info.pointee.ai_addrlen)
            }
        } catch {
            close()
            throw error
        }
    }

    deinit {
        headers.deallocate()
        vectors.deallocate()
        names.deallocate()
        payloads.deallocate()
        controls.deallocate()
    }

    private var isOpen: Bool { openness.withLock { $0.open } }

    func close() {
        openness.withLock { state in
            guard state.open else { return }
            state.drops = max(state.drops, reel_socket_drops(descriptor))
            state.open = false
            _ = Glibc.close(descriptor)
        }
    }

    /// Reads the datagrams waiting, up to about `limit`, without blocking; returns how many arrived.
    func read(onControlPort: Bool, limit: Int, into batch: inout [(datagram: ReceivedDatagram, arrival: Double)]) -> Int {
        var total = 0
        while isOpen && total < limit {
            for slot in 0..<Self.slots {
                var header = msghdr()
                header.msg_name = UnsafeMutableRawPointer(names + slot)
                header.msg_namelen = socklen_t(MemoryLayout<sockaddr_storage>.size)
                header.msg_iov = vectors + slot
                header.msg_iovlen = 1
                header.msg_control = controls + slot * Self.controlSize
                header.msg_controllen = Self.controlSize
                headers[slot] = reel_mmsghdr(msg_hdr: header, msg_len: 0)
            }
            let count = Int(reel_recvmmsg(descriptor, headers, UInt32(Self.slots), Int32(MSG_DONTWAIT), nil))
            guard count > 0 else { break }
            let now = monotonicSeconds()
            var wallClock = timespec()
            clock_gettime(CLOCK_REALTIME, &wallClock)
            let wallNow = Double(wallClock.tv_sec) + Double(wallClock.tv_nsec) / 1e9
            for slot in 0..<count {
                let header = headers[slot].msg_hdr
                var arrival = now
                if let stamp = readControl(header) { arrival = min(now, max(0, now - (wallNow - stamp))) }
                if header.msg_flags & Int32(MSG_TRUNC) != 0 { continue }
                let bytes = [UInt8](UnsafeRawBufferPointer(start: payloads + slot * Self.slotSize, count: Int(headers[slot].msg_len)))
                batch.append((ReceivedDatagram(bytes: bytes, onControlPort: onControlPort), arrival))
            }
            lastSender = (names[count - 1], headers[count - 1].msg_hdr.msg_namelen)
            total += count
            if count < Self.slots { break }
        }
        return total
    }

    /// Sends one datagram to the address the last one came from.
    func sendToLastSender(_ bytes: [UInt8]) {
        guard isOpen, var peer = lastSender else { return }
        _ = withUnsafePointer(to: &peer.address) { address in
            address.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(descriptor, bytes, bytes.count, Int32(MSG_DONTWAIT), $0, peer.length) }
        }
    }

    /// The arrival time (wall clock, seconds) of SO_TIMESTAMPNS.
    private func readControl(_ header: msghdr) -> Double? {
        guard let base = header.msg_control else { return nil }
        let end = Int(header.msg_controllen)
        var offset = 0, stamp: Double?
        let headerSize = MemoryLayout<cmsghdr>.size
        while offset + headerSize <= end {
            let message = base.load(fromByteOffset: offset, as: cmsghdr.self)
            let length = Int(message.cmsg_len)
            guard length >= headerSize, offset + length <= end else { break }
            if message.cmsg_level == SOL_SOCKET, message.cmsg_type == SO_TIMESTAMPNS, length >= headerSize + MemoryLayout<timespec>.size {
                let time = base.loadUnaligned(fromByteOffset: offset + headerSize, as: timespec.self)
                stamp = Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
            }
            offset += (length + 7) & ~7
        }
        return stamp
    }

    private func setOption(_ level: Int32, _ name: Int32, _ value: Int32) throws {
        var value = value
        guard setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw RTPError("setsockopt \(name): \(String(cString: strerror(errno)))")
        }
    }

    private func bind(_ address: UnsafePointer<sockaddr>, _ length: socklen_t) throws {
        guard Glibc.bind(descriptor, address, length) == 0 else {
            throw RTPError("cannot bind UDP port: \(String(cString: strerror(errno)))")
        }
    }

    private func join(group: UnsafePointer<sockaddr>, family: Int32) throws {
        let result: Int32
        if family == AF_INET {
            var request = ip_mreq()
            request.imr_multiaddr = group.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            result = setsockopt(descriptor, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &request, socklen_t(MemoryLayout<ip_mreq>.size))
        } else {
            var request = ipv6_mreq()
            request.ipv6mr_multiaddr = group.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            result = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_JOIN_GROUP, &request, socklen_t(MemoryLayout<ipv6_mreq>.size))
        }
        guard result == 0 else { throw RTPError("cannot join the multicast group: \(String(cString: strerror(errno)))") }
    }

    private static func isMulticast(_ address: UnsafePointer<sockaddr>, family: Int32) -> Bool {
        if family == AF_INET {
            let host = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            return host >> 28 == 0xE
        }
        return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr.__in6_u.__u6_addr8.0 } == 0xFF
    }

    private static func wildcard(_ storage: inout sockaddr_storage, family: Int32, port: Int) -> socklen_t {
        withUnsafeMutableBytes(of: &storage) { raw in
            if family == AF_INET {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = UInt16(port).bigEndian
                raw.storeBytes(of: address, as: sockaddr_in.self)
                return socklen_t(MemoryLayout<sockaddr_in>.size)
            }
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            raw.storeBytes(of: address, as: sockaddr_in6.self)
            return socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
    }
}
