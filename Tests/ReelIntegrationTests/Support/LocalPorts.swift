import Foundation

/// Ports for the servers and receivers the tests start on loopback, chosen below the
/// kernel's ephemeral range (`ip_local_port_range`, 32768 up by default). A port there is
/// taken only by a bind that names it, never by another process's outgoing socket between
/// the choice and the bind (a CI run saw a receiver's port taken that way: "Address already in use").
enum LocalPorts {
    static let ephemeralStart: Int = {
        let range = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        return range?.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32768
    }()

    /// A random even port from 20000 up to the ephemeral range (the odd one after it is
    /// in the range too, for RTCP).
    static func random() -> Int {
        Int.random(in: 20_000..<max(ephemeralStart - 1, 20_002)) & ~1
    }
}
