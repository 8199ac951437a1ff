import CSocket
import Dispatch

/// Gives the pages a closed session freed back to the system.
///
/// A session's threads (demuxer, decoders, FFmpeg's frame threads) each allocate from one
/// of glibc's per-thread arenas; when they end, what they freed stays mapped in arenas that
/// the next session's threads reuse only in part. A player that reopens again and again
/// (tracks switched, playlists, reconnects) then grows by some 15 % over minutes without a
/// leak (`scripts/soak.sh`: 111 MB to 130 MB in seven minutes of churn). `malloc_trim(0)`
/// hands the free pages inside every arena back; it takes a few milliseconds, so it runs
/// on a queue of its own, a moment after the session is gone (its members are freed after
/// its deinit).
enum FreedMemory {
    private static let queue = DispatchQueue(label: "reel.malloc-trim", qos: .utility)

    static func releaseSoon() {
        queue.asyncAfter(deadline: .now() + 0.2) { _ = malloc_trim(0) }
    }
}
