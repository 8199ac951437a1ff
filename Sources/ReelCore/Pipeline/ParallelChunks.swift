import Dispatch
import Synchronization

/// Runs `body(chunk)` for every chunk in `0..<count` on up to `threads` threads, each
/// taking the next chunk when it finishes one.
///
/// With one job per thread (`concurrentPerform(iterations: threads)`), a pool thread that
/// woke late left the calling thread doing both halves of a job of a few milliseconds (a
/// 360° view's map): the profile showed the caller with three times the worker's share.
/// Many small chunks let whichever thread is free take the next.
///
/// Never inlined: on one thread the body would be inlined into its caller, and in a
/// caller as large as a map's build the optimizer then left `Float.bitPattern` as a call
/// per pixel (a single-threaded build took longer than two threads' twice over).
@inline(never)
public func forEachChunk(_ count: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
    let workers = max(1, min(threads, count))
    guard workers > 1 else {
        for chunk in 0..<count { body(chunk) }
        return
    }
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while true {
            let chunk = next.add(1, ordering: .relaxed).oldValue
            guard chunk < count else { return }
            body(chunk)
        }
    }
}

/// `count` items cut into `chunks` nearly equal consecutive ranges: range `index`.
@inline(__always)
public func chunkRange(_ index: Int, of chunks: Int, count: Int) -> Range<Int> {
    (count * index / chunks)..<(count * (index + 1) / chunks)
}
