import CFFmpeg
import Dispatch
import ReelCore
import Synchronization

/// Lets a blocking FFmpeg call (opening a URL, reading a packet) give up: when
/// ``cancel()`` is called from any thread, or when the current operation has run longer
/// than ``timeout``. FFmpeg polls it through `AVIOInterruptCB`.
public final class InterruptController: Sendable {
    /// Seconds one blocking operation may take; `nil` waits for ever.
    public let timeout: Double?
    private let cancelled = Atomic<Bool>(false)
    private let timedOut = Atomic<Bool>(false)
    /// Monotonic nanoseconds at which the current operation gives up; 0 when none runs.
    private let deadline = Atomic<UInt64>(0)

    /// A controller; each blocking call gives up after `timeout` seconds (`nil`: never).
    public init(timeout: Double?) {
        self.timeout = timeout
    }

    /// Makes every blocking call on this input return as soon as it next polls.
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Runs `body` with the deadline armed for one operation, `allowance` seconds later
    /// than the timeout (an operation that must wait that long by design).
    func guarding<Result>(allowance: Double = 0, _ body: () throws -> Result) rethrows -> Result {
        timedOut.store(false, ordering: .relaxed)
        if let timeout {
            deadline.store(DispatchTime.now().uptimeNanoseconds + UInt64(max(timeout + allowance, 0) * 1e9), ordering: .relaxed)
        }
        defer { deadline.store(0, ordering: .relaxed) }
        return try body()
    }

    /// Why the last operation was interrupted, if it was.
    var interruptionReason: InputError.Reason? {
        if isCancelled { return .cancelled }
        if timedOut.load(ordering: .relaxed) { return .timedOut(seconds: timeout ?? 0) }
        return nil
    }

    func shouldInterrupt() -> Bool {
        if isCancelled { return true }
        let limit = deadline.load(ordering: .relaxed)
        if limit != 0 && DispatchTime.now().uptimeNanoseconds > limit {
            timedOut.store(true, ordering: .relaxed)
            return true
        }
        return false
    }

    /// The callback to hand to FFmpeg; valid while this controller lives.
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(callback: interruptCallback, opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}

/// Polled by FFmpeg on the thread that is blocked, so a plain global function.
private func interruptCallback(_ opaque: UnsafeMutableRawPointer?) -> Int32 {
    guard let opaque else { return 0 }
    return Unmanaged<InterruptController>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt() ? 1 : 0
}
