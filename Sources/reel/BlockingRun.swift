import Foundation

/// Blocking work off Swift's cooperative threads.
enum BlockingRun {
    static func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try work() }) }.start()
        }
    }
}
