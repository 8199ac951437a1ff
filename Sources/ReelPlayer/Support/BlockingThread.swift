import Foundation

/// Runs blocking work (FFmpeg I/O, decoding) on a thread of its own, never on Swift's
/// cooperative pool, and bridges its result to `async` callers.
package enum BlockingThread {
    package static func run<Result: Sendable>(name: String, _ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Swift.Result { try work() })
            }
            thread.name = name
            thread.start()
        }
    }

    /// Starts `work` on its own thread and returns at once.
    package static func start(name: String, _ work: @escaping @Sendable () -> Void) {
        let thread = Thread(block: work)
        thread.name = name
        thread.start()
    }
}
