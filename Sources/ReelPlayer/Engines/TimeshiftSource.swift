import Foundation
import ReelCore
import ReelFFmpeg

/// A live input played through a ``TimeshiftRing`` (`--timeshift`): a thread of its own
/// reads the input into the ring as it comes, whatever the viewer does, and the player
/// reads the ring, so that a pause or a seek back inside the window loses nothing and
/// "go live" is a seek to the newest media. One connection serves both: a listener-mode
/// input or a camera that allows one client plays as it did.
final class TimeshiftSource: PlaybackSource, @unchecked Sendable {
    let live: any PlaybackSource
    let ring: TimeshiftRing
    private let writerStarted = LockedValue(false)

    /// Keeps `window` seconds of `live` (at most `maximumBytes`) in files in `directory`:
    /// segments of 2 s, longer for a window over 400 s, so that about 200 files (and
    /// descriptors) hold any window.
    init(live: any PlaybackSource, window: Double, directory: String, maximumBytes: Int) {
        self.live = live
        let played = live.info.streams.filter { $0.type == .video || $0.type == .audio }.map(\.index)
        ring = TimeshiftRing(url: live.url, window: window, videoStream: live.bestStream(of: .video), directory: directory,
                             maximumBytes: maximumBytes, segmentSeconds: max(2, window / 200), jumpsWatched: Set(played))
    }

    /// Called with each packet as it is kept, on the thread that reads the input: a
    /// recording takes what arrives, not what the viewer goes back to.
    let onKept = LockedValue<(@Sendable (Packet) -> Void)?>(nil)

    var url: String { live.url }
    var info: MediaInfo { live.info }
    var reopensWhenLost: Bool { live.reopensWhenLost }
    var demuxer: Demuxer? { live.demuxer }
    var timeshift: TimeshiftRing? { ring }
    func bestStream(of type: MediaType) -> Int? { live.bestStream(of: type) }

    func makeDecoder(streamIndex: Int, options: DecoderOptions, framePool: FramePool) throws -> Decoder {
        try live.makeDecoder(streamIndex: streamIndex, options: options, framePool: framePool)
    }

    func readPacket() throws -> Packet? {
        startWriter()
        return try ring.read()
    }

    func seek(to time: MediaTime) throws {
        startWriter()
        ring.seek(to: time.seconds)
    }

    func cancel() {
        ring.cancel()
        live.cancel()
    }

    /// The input is read from the player's first read on, not at the open: until then
    /// the engine prepares its decoders from the demuxer's streams, which a read may change.
    private func startWriter() {
        guard !writerStarted.withLock({ started in
            defer { started = true }
            return started
        }) else { return }
        // The thread holds the source until the input ends or fails, or ``cancel()`` (which
        // the engine's stop calls) makes it fail.
        BlockingThread.start(name: "reel.timeshift") { [self] in
            do {
                while let packet = try live.readPacket() {
                    try ring.keep(packet)
                    onKept.withLock { $0 }?(packet)
                }
                ring.finish(nil)
            } catch {
                ring.finish(error)
            }
        }
    }
}
