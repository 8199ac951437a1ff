import Foundation
import ReelCore
import ReelFFmpeg

/// What turns a session's input into decoded frames: one of the engines under Reel's
/// player shell, as SGPlayer's shell sits over its platform and FFmpeg engines.
///
/// The cut is at decoded frames. Everything after them is the shell's and the same
/// whichever engine plays: the frame queues and their timelines (serials), the display
/// loop and clocks, the audio renderer (device, volume, tempo, A/V sync), the frame tap,
/// snapshots, the 360° view and picture-in-picture. An engine puts each frame through
/// ``PlaybackSession/queueVideo(_:serial:)`` and ``PlaybackSession/queueAudio(_:serial:)``
/// on the timeline it was read for, ends each stream with a `nil` frame, and follows the
/// seeks the shell publishes in ``PlaybackControl/pendingSeek``.
protocol PlaybackEngine: AnyObject, Sendable {
    /// Which engine this is.
    var kind: PlaybackEngineKind { get }
    /// The input as this engine sees it.
    var info: MediaInfo { get }
    /// The stream the engine would play for `type`, if the input has one.
    func bestStream(of type: MediaType) -> Int?
    /// Prepares to decode `videoStream` and `audioStream` (what the session chose).
    func prepare(videoStream: Int?, audioStream: Int?, options: DecoderOptions, framePool: FramePool) throws
    /// Starts the engine's threads for `session` through `spawn`, which the session joins
    /// when it stops.
    func start(_ session: PlaybackSession, spawn: (String, @escaping @Sendable () -> Void) -> Void)
    /// Wakes whatever the engine's threads wait on; they then end.
    func cancel()
    /// Plays audio stream `index` from the timeline `session` starts next.
    func switchAudio(to index: Int, in session: PlaybackSession, at position: Double) throws
    /// Decoded frames held by the engine's pool, for the statistics.
    var framesAllocated: Int { get }
    /// What decodes the video: the decoder's name, and whether it runs on hardware.
    var videoDecoder: (name: String, isHardware: Bool)? { get }
}
