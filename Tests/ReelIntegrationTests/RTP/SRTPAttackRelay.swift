import Foundation
import ReelCore

/// A UDP relay between an SRTP sender and the receiver that passes every packet on, in
/// order, and slips attacks in between them from the 20th packet on: a forgery of the next
/// packet (its sequence number, a payload byte flipped) after every tenth packet, a replay
/// of the packet sent 50 earlier (inside libsrtp's replay window) after every tenth from
/// the 70th, and once a copy whose sequence number jumps half the number space ahead (a
/// rollover-counter jump a receiver must not follow). It counts what it slipped in.
final class SRTPAttackRelay: @unchecked Sendable {
    let input: UDPSocket
    private let output: UDPSocket
    private let destination: sockaddr_in
    private let lock = NSLock()
    private var running = true
    private var forged = 0, replayed = 0, sequenceJumps = 0, passed = 0
    private let done = DispatchGroup()

    init(to port: Int) throws {
        input = try UDPSocket()
        output = try UDPSocket()
        destination = UDPSocket.loopback(port: port)
        done.enter()
        Thread { [self] in
            relay()
            done.leave()
        }.start()
    }

    /// What went through: the sender's packets, and each kind of attack slipped in.
    var counts: (passed: Int, forged: Int, replayed: Int, sequenceJumps: Int) {
        lock.withLock { (passed, forged, replayed, sequenceJumps) }
    }

    private func relay() {
        var history: [[UInt8]] = []
        while lock.withLock({ running }) {
            guard let datagram = input.receive(timeout: 0.1) else { continue }
            let packet = datagram.bytes
            let index = history.count
            history.append(packet)
            _ = output.send(packet, to: destination)
            lock.withLock { passed += 1 }
            guard index >= 20, packet.count > 40 else { continue }
            if index % 10 == 3 {
                // The next sequence number, before the sender's own packet has it: libsrtp
                // checks replays before tags, so a forgery with an index already seen would
                // be refused as a replay, and one ahead must not take the real packet's place.
                var copy = Self.withSequence(packet, plus: 1)
                copy[copy.count / 2] ^= 0xFF
                _ = output.send(copy, to: destination)
                lock.withLock { forged += 1 }
            }
            if index % 10 == 6 && index >= 70 {
                _ = output.send(history[index - 50], to: destination)
                lock.withLock { replayed += 1 }
            }
            if index == 150 {
                _ = output.send(Self.withSequence(packet, plus: 32768), to: destination)
                lock.withLock { sequenceJumps += 1 }
            }
        }
    }

    private static func withSequence(_ packet: [UInt8], plus step: UInt16) -> [UInt8] {
        var copy = packet
        let sequence = (UInt16(copy[2]) << 8 | UInt16(copy[3])) &+ step
        copy[2] = UInt8(sequence >> 8)
        copy[3] = UInt8(sequence & 0xFF)
        return copy
    }

    func stop() {
        lock.withLock { running = false }
        done.wait()
    }
}
