import Foundation
import ReelCore

/// Writes the frames a player presents somewhere outside the process (``y4m(tap:path:frameRate:bufferLimit:)``,
/// ``png(tap:directory:every:)``), on the tap's queue: a slow destination loses frames
/// (counted), never the player's time. The first error stops the writing.
public final class TapWriter: @unchecked Sendable {
    /// The file, FIFO or directory written to.
    public let destination: String
    private let state = LockedValue<(written: Int, error: TapError?)>((0, nil))
    private var subscription: FrameTapSubscription?

    init(tap: FrameTap, destination: String, bufferLimit: Int, every: Int = 1,
         write: @escaping @Sendable (SampleBuffer) throws -> Void) {
        self.destination = destination
        subscription = tap.subscribe(format: nil, bufferLimit: bufferLimit, every: every) { [state] sample in
            guard state.withLock({ $0.error == nil }) else { return }
            do {
                try write(sample)
                state.withLock { $0.written += 1 }
            } catch {
                state.withLock { $0.error = error as? TapError ?? TapError(path: destination, reason: "\(error)") }
            }
        }
    }

    /// Frames written to the file or directory so far.
    public var framesWritten: Int { state.withLock { $0.written } }
    /// Frames the tap dropped because the writer fell behind.
    public var framesDropped: Int { subscription?.droppedFrames ?? 0 }
    /// The first write error; the writer stops at it.
    public var error: TapError? { state.withLock { $0.error } }

    /// Stops taking frames and waits (up to `timeout` seconds) until those already taken
    /// are written.
    public func stop(timeout: Double = 5) {
        subscription?.cancel()
        if subscription?.waitUntilIdle(timeout: timeout) == false {
            state.withLock { $0.error = $0.error ?? TapError(path: destination, reason: "the reader stopped taking frames") }
        }
    }
}

extension TapWriter {
    /// A YUV4MPEG2 stream (`.y4m`) that ffmpeg, mpv, ffplay or x264 read, to a file or a
    /// FIFO (opened on the tap's queue, so a FIFO without a reader yet never holds up
    /// playback). 8-bit frames go out as I420, 10-bit 4:2:0 as is.
    ///
    /// - Parameters:
    ///   - tap: the frame tap to subscribe to.
    ///   - path: the file or FIFO.
    ///   - frameRate: for the header, as y4m frames carry no times; by default the inverse
    ///     of the first frame's duration (25 when it has none).
    ///   - bufferLimit: frames waiting for the writer, at most; older ones are dropped.
    public static func y4m(tap: FrameTap, path: String, frameRate: Rational? = nil, bufferLimit: Int = 8) -> TapWriter {
        let stream = Y4MStream(path: path, frameRate: frameRate)
        return TapWriter(tap: tap, destination: path, bufferLimit: bufferLimit) { sample in try stream.write(sample) }
    }

    /// Every `every`-th presented frame as `DIR/frame-NNNNNN.png`, numbered by the
    /// frame's place in presentation order.
    public static func png(tap: FrameTap, directory: String, every: Int = 1) throws -> TapWriter {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw TapError(path: directory, reason: error.localizedDescription)
        }
        return TapWriter(tap: tap, destination: directory, bufferLimit: 8, every: max(every, 1)) { sample in
            let path = (directory as NSString).appendingPathComponent(String(format: "frame-%06d.png", sample.index))
            do {
                try PNGWriter.write(sample.pixelBuffer.videoFrame(), to: path)
            } catch {
                throw TapError(path: path, reason: "\(error)")
            }
        }
    }
}

/// The y4m file: a header before the first frame, then `FRAME` and the planes, packed.
private final class Y4MStream: @unchecked Sendable {
    private let path: String
    private let frameRate: Rational?
    private var sink: FileSink?

    init(path: String, frameRate: Rational?) {
        self.path = path
        self.frameRate = frameRate
    }

    /// Called on the tap's queue only.
    func write(_ sample: SampleBuffer) throws {
        var buffer = sample.pixelBuffer
        if buffer.format != .i420 && buffer.format != .i420p10 { buffer = try buffer.converted(to: .i420) }
        let sink = try self.sink ?? open(for: buffer, duration: sample.duration)
        try sink.write("FRAME\n")
        try buffer.forEachPackedRow { try sink.write($0) }
    }

    private func open(for buffer: PixelBuffer, duration: MediaTime?) throws -> FileSink {
        let sink = try FileSink(path: path)
        let rate = frameRate ?? duration.flatMap { $0.value > 0 ? Rational(Int($0.timescale), Int($0.value)).reduced : nil } ?? Rational(25, 1)
        let layout = buffer.format == .i420p10 ? "C420p10 XYSCSS=420P10" : "C420jpeg XYSCSS=420JPEG"
        let range = buffer.range == .full ? "FULL" : "LIMITED"
        try sink.write("YUV4MPEG2 W\(buffer.width) H\(buffer.height) F\(rate.numerator):\(rate.denominator) Ip A1:1 \(layout) XCOLORRANGE=\(range)\n")
        self.sink = sink
        return sink
    }
}
