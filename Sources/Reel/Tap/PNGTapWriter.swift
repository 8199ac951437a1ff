import Foundation
import ReelCore
import ReelFFmpeg

/// Writes every `every`-th presented frame as `DIR/frame-NNNNNN.png`, numbered by the
/// frame's place in presentation order.
public final class PNGTapWriter: @unchecked Sendable {
    private let directory: String
    private var path: String { directory }
    private let state = LockedValue<(written: Int, error: TapError?)>((0, nil))
    private var subscription: FrameTapSubscription?

    public init(tap: FrameTap, directory: String, every: Int = 1) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw TapError(path: directory, reason: error.localizedDescription)
        }
        self.directory = directory
        subscription = tap.subscribe(format: nil, bufferLimit: 8, every: every) { [weak self] sample in self?.write(sample) }
    }

    public var framesWritten: Int { state.withLock { $0.written } }
    public var framesDropped: Int { subscription?.droppedFrames ?? 0 }
    public var error: TapError? { state.withLock { $0.error } }

    /// Stops taking frames and waits (up to `timeout` seconds) until those already taken
    /// are written.
    public func stop(timeout: Double = 5) {
        subscription?.cancel()
        if subscription?.waitUntilIdle(timeout: timeout) == false {
            state.withLock { $0.error = $0.error ?? TapError(path: path, reason: "the reader stopped taking frames") }
        }
    }

    private func write(_ sample: SampleBuffer) {
        guard state.withLock({ $0.error == nil }) else { return }
        let path = (directory as NSString).appendingPathComponent(String(format: "frame-%06d.png", sample.index))
        do {
            try PNGWriter.write(sample.pixelBuffer.videoFrame(), to: path)
            state.withLock { $0.written += 1 }
        } catch {
            state.withLock { $0.error = TapError(path: path, reason: "\(error)") }
        }
    }
}
