/// Points inside a playback where a test can hold one thread, to widen a race window that
/// is otherwise microseconds wide and make it happen on every run. Internal: reached only
/// through `@testable import Reel`; production code leaves every hook empty.
struct PlaybackTestHooks: Sendable {
    /// On the read thread, after the end-of-stream markers are queued and before the
    /// reader records that it reached the end of the input.
    var readerReachingEnd: @Sendable () -> Void = {}
    /// On the seeking thread, once a seek is visible to the read thread (it may act on it
    /// from here on) and before the seek call returns.
    var seekPublished: @Sendable () -> Void = {}
    /// On the engine's thread, for each decoded picture (the engine, its time) before it is
    /// queued: a throw is a decoding failure of that engine.
    var videoFrameDecoded: @Sendable (PlaybackEngineKind, Double) throws -> Void = { _, _ in }
}
