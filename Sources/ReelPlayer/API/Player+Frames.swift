import Foundation
import ReelCore
import ReelFFmpeg

extension Player {
    /// Shows the next frame and stays paused (mpv's `.`); pauses first when playing.
    public func stepForward() {
        guard let session = lock.withLock({ session }) else { return }
        if state != .paused && state != .ready { pause() }
        session.control.update { $0.stepsRequested += 1 }
    }

    /// Shows the frame before the one on screen and stays paused (mpv's `,`): an exact
    /// seek to the middle of the frame before, which lands on it whatever the GOP.
    public func stepBackward() {
        guard let session = lock.withLock({ session }) else { return }
        if state != .paused && state != .ready { pause() }
        guard let shown = session.control.update({ control -> (pts: Double, duration: Double, serial: Int)? in
            control.stepsRequested = 0
            return control.shown
        }) else { return }
        let frameDuration = shown.duration > 0 ? shown.duration : session.nominalFrameDuration
        guard shown.pts - session.startTime > frameDuration / 2 else { return }
        session.requestSeek(to: shown.pts - frameDuration / 2, mode: .exact)
    }

    /// The frame on screen (upright, at the video's own size), or nil before the first.
    public var currentFrame: VideoFrame? { lock.withLock { session }?.control.read { $0.shownFrame } }

    /// Writes the frame on screen to `path` as PNG (RGB, at the video's own size).
    public func screenshot(to path: String) throws {
        guard let frame = currentFrame else { throw ScreenshotError.noFrame }
        try PNGWriter.write(frame, to: path)
    }

    /// Writes the frame on screen to `directory` under mpv's naming (`reel-shot0001.png`,
    /// the first number not taken) and returns the file's path.
    @discardableResult
    public func screenshot(inDirectory directory: String) throws -> String {
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        guard let name = ScreenshotNames.next(existing: existing) else { throw ScreenshotError.namesExhausted(directory) }
        let path = (directory as NSString).appendingPathComponent(name)
        try screenshot(to: path)
        return path
    }

    /// The A-B loop: once both points are set, playback that reaches B seeks exactly to A.
    public var abLoop: ABLoop {
        get { lock.withLock { session }?.control.read { $0.abLoop } ?? ABLoop() }
        set { lock.withLock { session }?.control.update { $0.abLoop = newValue } }
    }

    /// Shows `text` on the window's display for `seconds`.
    public func showMessage(_ text: String, seconds: Double = 2) {
        let until = clock.now + seconds
        lock.withLock { session }?.control.update { $0.message = (text, until) }
    }
}
