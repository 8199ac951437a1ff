import Foundation
import ReelCore

/// A UDP relay between a sender and the receiver that loses, duplicates and delays
/// packets (delays reorder them), from a seed, and keeps the ground truth: which sequence
/// numbers it never passed on and how many copies it added. It leaves alone the first
/// packets (the receiver's probation) and everything after `impairedSeconds`, so the
/// receiver can see every loss.
final class ImpairmentRelay: @unchecked Sendable {
    struct Settings {
        var loss = 0.1
        var duplication = 0.05
        var maxDelay = 0.02
        /// One run of this many consecutive packets lost, after `burstAfter` packets.
        var burstLength = 12
        var burstAfter = 120
        var untouchedFirst = 20
        var impairedSeconds = 1.6
        var seed: UInt64 = 7
    }

    let input: UDPSocket
    private let output: UDPSocket
    private let destination: sockaddr_in
    private let settings: Settings
    private let lock = NSLock()
    private var pending: [(at: Double, bytes: [UInt8])] = []
    private var running = true
    private(set) var dropped: Set<UInt16> = []
    private(set) var duplicated = 0
    private(set) var forwarded = 0
    private let threads = DispatchGroup()

    init(to port: Int, settings: Settings = Settings()) throws {
        input = try UDPSocket()
        output = try UDPSocket()
        destination = UDPSocket.loopback(port: port)
        self.settings = settings
        threads.enter()
        Thread { [self] in
            receiveLoop()
            threads.leave()
        }.start()
        threads.enter()
        Thread { [self] in
            sendLoop()
            threads.leave()
        }.start()
    }

    private func receiveLoop() {
        var random = SeededGenerator(seed: settings.seed)
        var count = 0
        var start: Double?
        while lock.withLock({ running }) {
            guard let datagram = input.receive(timeout: 0.1) else { continue }
            let now = monotonicSeconds()
            start = start ?? now
            count += 1
            let sequence = datagram.bytes.count >= 4 ? UInt16(datagram.bytes[2]) << 8 | UInt16(datagram.bytes[3]) : 0
            let impaired = count > settings.untouchedFirst && now - start! < settings.impairedSeconds
            let inBurst = count > settings.burstAfter && count <= settings.burstAfter + settings.burstLength
            lock.withLock {
                if impaired && (inBurst || Double.random(in: 0..<1, using: &random) < settings.loss) {
                    dropped.insert(sequence)
                    return
                }
                let delay = impaired ? Double.random(in: 0...settings.maxDelay, using: &random) : 0
                pending.append((now + delay, datagram.bytes))
                if impaired && Double.random(in: 0..<1, using: &random) < settings.duplication {
                    duplicated += 1
                    pending.append((now + Double.random(in: 0...settings.maxDelay, using: &random), datagram.bytes))
                }
            }
        }
    }

    private func sendLoop() {
        while true {
            let now = monotonicSeconds()
            let (due, stop) = lock.withLock { () -> ([[UInt8]], Bool) in
                let ready = pending.enumerated().filter { $0.element.at <= now }.sorted { $0.element.at < $1.element.at }
                let indices = Set(ready.map(\.offset))
                pending = pending.enumerated().filter { !indices.contains($0.offset) }.map(\.element)
                return (ready.map(\.element.bytes), !running && pending.isEmpty)
            }
            for bytes in due { output.send(bytes, to: destination) }
            forwarded += due.count
            if stop { return }
            usleep(1000)
        }
    }

    func stop() {
        lock.withLock { running = false }
        threads.wait()
    }
}
