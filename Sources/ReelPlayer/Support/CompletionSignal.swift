import ReelCore

/// The end of a thread's work, which others wait for: actions registered before it run
/// when it comes, actions registered after run at once. A receiver and a VAP player each
/// have one for their thread.
package final class CompletionSignal: @unchecked Sendable {
    package init() {}

    private let lock = ConditionLock()
    private var done = false
    private var actions: [@Sendable () -> Void] = []

    package var isDone: Bool { lock.withLock { done } }

    /// The work is done: runs the waiting actions, once.
    package func signal() {
        let waiting = lock.withLock { () -> [@Sendable () -> Void] in
            guard !done else { return [] }
            done = true
            lock.broadcast()
            defer { actions = [] }
            return actions
        }
        for action in waiting { action() }
    }

    /// Runs `action` when the work is done, at once if it is.
    package func whenDone(_ action: @escaping @Sendable () -> Void) {
        let now = lock.withLock {
            if !done { actions.append(action) }
            return done
        }
        if now { action() }
    }

    /// Blocks the calling thread (never one of the concurrency pool's) until the work is done.
    package func block() {
        lock.withLock { while !done { lock.wait() } }
    }

    /// Waits until the work is done.
    package func wait() async {
        await withCheckedContinuation { continuation in whenDone { continuation.resume() } }
    }

    /// Waits until the work is done, or returns early when the waiting task is cancelled.
    package func waitCancellably() async {
        _ = await ReelPlayer.waitCancellably { done in whenDone { done(()) } }
    }
}
