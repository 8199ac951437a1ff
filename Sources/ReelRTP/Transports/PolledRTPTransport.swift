import CSocket
import Foundation
import ReelCore

/// A transport the receiving thread reads itself, in batches, instead of being handed
/// each packet by another thread: plain UDP, where packets are many and small and a
/// thread hop per packet would cost more than handling it.
protocol PolledRTPTransport: RTPTransport {
    /// Sleeps until a datagram is waiting (when `forDatagrams`), `interrupt()` is called
    /// or `deadline` (monotonic seconds) passes.
    func wait(until deadline: Double, forDatagrams: Bool)
    /// Reads the datagrams waiting, up to about `limit` (a flood is handled in bounded
    /// batches), without blocking; returns how many arrived.
    func read(limit: Int, into batch: inout [(datagram: ReceivedDatagram, arrival: Double)]) -> Int
    /// Ends a `wait` early, from any thread.
    func interrupt()
    /// Datagrams the kernel dropped because the receiving thread did not keep up.
    var droppedDatagrams: Int { get }
}

/// Wakes a thread sleeping in `poll` (an eventfd it polls along with its sockets).
final class PollWaker: Sendable {
    let descriptor = reel_eventfd_nonblocking()

    deinit { _ = close(descriptor) }

    func wake() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }

    /// Polls the waker and `sockets` until one is readable or `deadline` passes.
    func wait(until deadline: Double, sockets: [Int32]) {
        var entries = ([descriptor] + sockets).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let left = deadline - monotonicSeconds()
        guard left > 0 else { return }
        // Rounded up: waking a little late is fine, waking early spins.
        let milliseconds = Int32(min(500, (left * 1000).rounded(.up)))
        _ = poll(&entries, nfds_t(entries.count), milliseconds)
        if entries[0].revents != 0 {
            var count: UInt64 = 0
            _ = read(descriptor, &count, 8)
        }
    }
}
