import Foundation
import ReelCore

/// Writes the frames a player presents as a YUV4MPEG2 stream (`.y4m`) that ffmpeg, mpv,
/// ffplay or x264 read, to a file or a FIFO. 8-bit frames go out as I420, 10-bit 4:2:0
/// as is. The file is opened on the tap's queue, so a FIFO without a reader yet never
/// holds up playback; a slow reader loses frames (counted), never the player's time.
public final class Y4MTapWriter: @unchecked Sendable {
    private let path: String
    private let frameRate: Rational?
    private let state = LockedValue<(sink: FileSink?, written: Int, error: TapError?)>((nil, 0, nil))
    private var subscription: FrameTapSubscription?

    /// - Parameter frameRate: written into the header, as y4m frames carry no times; by
    ///   default the inverse of the first frame's duration (25 when it has none).
    public init(tap: FrameTap, path: String, frameRate: Rational? = nil, bufferLimit: Int = 8) {
        self.path = path
        self.frameRate = frameRate
        subscription = tap.subscribe(format: nil, bufferLimit: bufferLimit) { [weak self] sample in self?.write(sample) }
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
        do {
            var buffer = sample.pixelBuffer
            if buffer.format != .i420 && buffer.format != .i420p10 { buffer = try buffer.converted(to: .i420) }
            let sink = try state.withLock { $0.sink } ?? openSink(for: buffer, duration: sample.duration)
            try sink.write("FRAME\n")
            try buffer.forEachPackedRow { try sink.write($0) }
            state.withLock { $0.written += 1 }
        } catch {
            state.withLock { $0.error = error as? TapError ?? TapError(path: path, reason: "\(error)") }
        }
    }

    private func openSink(for buffer: PixelBuffer, duration: MediaTime?) throws -> FileSink {
        let sink = try FileSink(path: path)
        let frameRate = frameRate ?? duration.flatMap { $0.value > 0 ? Rational(Int($0.timescale), Int($0.value)).reduced : nil } ?? Rational(25, 1)
        let colour = buffer.format == .i420p10 ? "C420p10 XYSCSS=420P10" : "C420jpeg XYSCSS=420JPEG"
        let range = buffer.range == .full ? " XCOLORRANGE=FULL" : " XCOLORRANGE=LIMITED"
        try sink.write("YUV4MPEG2 W\(buffer.width) H\(buffer.height) F\(frameRate.numerator):\(frameRate.denominator) Ip A1:1 \(colour)\(range)\n")
        state.withLock { $0.sink = sink }
        return sink
    }
}
