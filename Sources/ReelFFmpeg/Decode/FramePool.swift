import CFFmpeg
import ReelCore

/// Reuses `AVFrame`s, as SGPlayer's frame pool does: a frame that the last
/// ``VideoFrame``/``AudioFrame`` stops referring to comes back here instead of being
/// freed, so steady-state decoding allocates no frames. (The pixel buffers behind them
/// are pooled by libavcodec itself.)
public final class FramePool: @unchecked Sendable {
    private let free = LockedValue<[UnsafeMutablePointer<AVFrame>]>([])
    private let allocations = LockedValue(0)
    /// Frames kept for reuse at most; more are freed.
    public let capacity: Int

    /// - Parameter preallocated: frames made up front (the most a pipeline keeps in flight).
    public init(capacity: Int = 64, preallocated: Int = 0) {
        self.capacity = max(capacity, preallocated)
        let frames = (0..<preallocated).compactMap { _ in av_frame_alloc() }
        free.withLock { $0 = frames }
        allocations.withLock { $0 = frames.count }
    }

    deinit {
        free.withLock { frames in
            for frame in frames {
                var pointer: UnsafeMutablePointer<AVFrame>? = frame
                av_frame_free(&pointer)
            }
        }
    }

    /// How many frames this pool has had to allocate so far.
    public var allocatedCount: Int { allocations.withLock { $0 } }

    func take() -> UnsafeMutablePointer<AVFrame>? {
        if let frame = free.withLock({ $0.popLast() }) { return frame }
        allocations.withLock { $0 += 1 }
        return av_frame_alloc()
    }

    func give(_ frame: UnsafeMutablePointer<AVFrame>) {
        av_frame_unref(frame)
        let kept = free.withLock { frames -> Bool in
            guard frames.count < capacity else { return false }
            frames.append(frame)
            return true
        }
        if !kept {
            var pointer: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&pointer)
        }
    }
}
