import CFFmpeg
import Dispatch
import ReelCore
import Synchronization

/// Lets a blocking FFmpeg call (opening a URL, reading a packet) give up: when
/// ``cancel()`` is called from any thread, or when the current operation has waited
/// ``timeout`` seconds (a probe or a read: seconds without a byte arriving). FFmpeg polls
/// it through `AVIOInterruptCB`.
public final class InterruptController: Sendable {
    /// Seconds one blocking operation may wait; `nil` waits for ever.
    public let timeout: Double?
    private let cancelled = Atomic<Bool>(false)
    private let timedOut = Atomic<Bool>(false)
    /// Monotonic nanoseconds at which the current operation gives up; 0 when none runs.
    private let deadline = Atomic<UInt64>(0)
    /// The input whose arriving bytes push the deadline back (its address; 0 for none).
    private let watchedInput = Atomic<UInt>(0)
    private let bytesSeen = Atomic<Int64>(0)

    /// A controller; each blocking call gives up after `timeout` seconds (`nil`: never).
    public init(timeout: Double?) {
        self.timeout = timeout
    }

    /// Makes every blocking call on this input return as soon as it next polls.
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Runs `body` with the deadline armed for one operation. With `input`, bytes that
    /// arrive on it push the deadline back: the operation gives up after `timeout` seconds
    /// without any, as FFmpeg's `rw_timeout` does, so probing a live input, which reads
    /// its media as it is sent, may take longer than the timeout while the media flows.
    func guarding<Result>(input: UnsafeMutablePointer<AVFormatContext>? = nil, _ body: () throws -> Result) rethrows -> Result {
        timedOut.store(false, ordering: .relaxed)
        watchedInput.store(UInt(bitPattern: input), ordering: .relaxed)
        bytesSeen.store(Self.bytesRead(input), ordering: .relaxed)
        if let timeout { deadline.store(Self.nanoseconds(timeout, after: DispatchTime.now().uptimeNanoseconds), ordering: .relaxed) }
        defer {
            deadline.store(0, ordering: .relaxed)
            watchedInput.store(0, ordering: .relaxed)
        }
        return try body()
    }

    /// The monotonic time `seconds` after `now`.
    private static func nanoseconds(_ seconds: Double, after now: UInt64) -> UInt64 {
        now + UInt64(max(seconds, 0) * 1e9)
    }

    private static func bytesRead(_ input: UnsafeMutablePointer<AVFormatContext>?) -> Int64 {
        input?.pointee.pb?.pointee.bytes_read ?? 0
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
        guard limit != 0 else { return false }
        let now = DispatchTime.now().uptimeNanoseconds
        // FFmpeg polls on the thread running the guarded call, the one that owns the input.
        if let input = UnsafeMutablePointer<AVFormatContext>(bitPattern: watchedInput.load(ordering: .relaxed)), let timeout {
            let bytes = Self.bytesRead(input)
            if bytes != bytesSeen.load(ordering: .relaxed) {
                bytesSeen.store(bytes, ordering: .relaxed)
                deadline.store(Self.nanoseconds(timeout, after: now), ordering: .relaxed)
                return false
            }
        }
        if now > limit {
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
