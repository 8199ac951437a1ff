import ReelCore

/// Waits for a one-time result reported through `register`'s callback, and returns `nil`
/// at once when the waiting task is cancelled: a cancelled caller is never held by a
/// player, a receiver or an encoder that goes on working. A result that comes after the
/// cancellation is dropped.
package func waitCancellably<Value: Sendable>(_ register: (@escaping @Sendable (Value) -> Void) -> Void) async -> Value? {
    let resumer = OnceResumer<Value>()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            resumer.hold(continuation)
            register { resumer.resume(with: $0) }
        }
    } onCancel: {
        resumer.resume(with: nil)
    }
}

/// Resumes a continuation once, with whichever comes first: the result or the
/// cancellation, even when either comes before the continuation exists.
private final class OnceResumer<Value: Sendable>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var continuation: CheckedContinuation<Value?, Never>?
    private var outcome: Value??

    func hold(_ continuation: CheckedContinuation<Value?, Never>) {
        let decided = lock.withLock { () -> Value?? in
            if outcome == nil { self.continuation = continuation }
            return outcome
        }
        if let decided { continuation.resume(returning: decided) }
    }

    func resume(with value: Value?) {
        let waiting = lock.withLock { () -> CheckedContinuation<Value?, Never>? in
            guard outcome == nil else { return nil }
            outcome = .some(value)
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: value)
    }
}
