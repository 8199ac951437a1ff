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

extension LockedValue {
    /// The array, copied into storage of its own while locked, for a reader on another
    /// thread. Handing out the locked storage itself is safe (the next append writes in
    /// place only once the reader's reference is gone, and the reference count orders the
    /// two), but that count lives in the uninstrumented Swift runtime, so ThreadSanitizer
    /// reports the reader's access and the later append as a race.
    package func copy<Element>() -> [Element] where Value == [Element] {
        withLock { $0.map { $0 } }
    }
}
