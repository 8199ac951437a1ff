import Foundation

/// A value behind a pthread mutex (clean under ThreadSanitizer, unlike
/// `Synchronization.Mutex` on this toolchain).
package final class LockedValue<Value>: @unchecked Sendable {
    private var value: Value
    private var mutex = pthread_mutex_t()

    package init(_ value: Value) {
        self.value = value
        pthread_mutex_init(&mutex, nil)
    }

    deinit { pthread_mutex_destroy(&mutex) }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body(&value)
    }
}
