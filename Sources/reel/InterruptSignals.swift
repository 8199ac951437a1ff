import Dispatch
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM caught for as long as this lives, so that a command ends
/// properly (its report printed, its files finished) instead of being killed.
final class InterruptSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var caught = false
    private var sources: [any DispatchSourceSignal] = []

    /// - Parameter onSignal: called on a global queue for each signal that arrives.
    init(onSignal: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in
                self?.lock.withLock { self?.caught = true }
                onSignal()
            }
            source.resume()
            return source
        }
    }

    deinit { sources.forEach { $0.cancel() } }

    /// Whether a signal arrived.
    var received: Bool { lock.withLock { caught } }
}
