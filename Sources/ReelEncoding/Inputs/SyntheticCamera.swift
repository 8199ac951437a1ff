import Foundation
import ReelCore
import ReelText

/// A live test source: a textured scene panning under a moving box, with the wall-clock
/// time and the frame number burnt in, delivered at its frame rate in real time (or as
/// fast as asked, for tests: then the media time is burnt in, and every run's pictures
/// are the same). The texture keeps the encoder busy as a real camera does; a
/// flat pattern would cost next to no bits.
///
/// Not `Sendable`: one encoder loop pulls its pictures, in order.
public final class SyntheticCamera: EncoderInput {
    public let width: Int
    public let height: Int
    public let frameRate: Rational
    public let frameCount: Int?
    public let isLive: Bool
    /// Whether each picture carries its capture time as a `LatencyTimecode`.
    public let drawsTimecode: Bool
    private let pool = PixelBufferPool(capacity: 16)
    private let texture: [UInt8]
    private let textureWidth: Int
    private let text: TextRasterizer
    private let captionHeight: Int
    private var index = 0
    private var startWall: Double?
    /// Frame `n` is captured at `startWall + n / rate`, however long it then takes to draw.
    public var captureOrigin: Double? { isLive ? startWall : nil }
    private let clockFormat: DateFormatter = {
        let format = DateFormatter()
        format.dateFormat = "HH:mm:ss.SSS"
        format.timeZone = TimeZone(identifier: "UTC")
        return format
    }()

    /// - Parameters:
    ///   - width: the picture's width in pixels (even).
    ///   - height: its height (even).
    ///   - frameRate: frames per second.
    ///   - frames: how many frames it delivers; nil for ever.
    ///   - realTime: wait for each frame's time, as a camera does.
    ///   - timecode: draw the wall-clock time of each capture as a `LatencyTimecode`
    ///     across the top, for a viewer to measure the latency from camera to screen.
    public init(width: Int, height: Int, frameRate: Rational, frames: Int? = nil, realTime: Bool = true, timecode: Bool = false) throws {
        guard width >= 64, height >= 64, width % 2 == 0, height % 2 == 0, width <= 8192, height <= 8192 else {
            throw EncoderError(.invalidProperty, "the camera's size must be even and 64x64 to 8192x8192, got \(width)x\(height)")
        }
        guard let rate = frameRate.doubleValue, rate > 0, rate <= 240 else {
            throw EncoderError(.invalidProperty, "the camera's frame rate must be above 0 and at most 240, got \(frameRate)")
        }
        if timecode, LatencyTimecode.cellSize(width: width, height: height) == nil {
            throw EncoderError(.invalidProperty, "the camera at \(width)x\(height) is too small for a timecode (128 pixels wide at least, and wide rather than tall)")
        }
        drawsTimecode = timecode
        self.width = width
        self.height = height
        self.frameRate = frameRate
        frameCount = frames
        isLive = realTime
        text = try TextRasterizer()
        captionHeight = max(16, height / 12) & ~1
        // A fixed pseudo-random texture twice as wide as the picture, smoothed a little so
        // it looks like detail rather than noise.
        textureWidth = width * 2
        var generator = SeededGenerator(seed: 0x5EED)
        var texture = [UInt8](repeating: 0, count: textureWidth * height)
        for row in 0..<height {
            var smooth = 128
            for column in 0..<textureWidth {
                smooth = (smooth * 3 + Int(generator.next() & 0xFF)) / 4
                let above = row > 0 ? Int(texture[(row - 1) * textureWidth + column]) : smooth
                texture[row * textureWidth + column] = UInt8(clamping: 16 + (smooth + above) / 2 * 219 / 255)
            }
        }
        self.texture = texture
    }

    public func nextFrame() throws -> (frame: VideoFrame, presentationTime: MediaTime)? {
        if let frameCount, index >= frameCount { return nil }
        let rate = frameRate.doubleValue ?? 30
        if isLive {
            let now = monotonicSeconds()
            let start = startWall ?? now
            startWall = start
            let due = start + Double(index) / rate - now
            if due > 0 { usleep(UInt32(due * 1_000_000)) }
        }
        let captured = LatencyTimecode.now()
        let picture = try pool.makeBuffer(format: .i420, width: width, height: height)
        draw(into: picture)
        if drawsTimecode { LatencyTimecode.draw(captured, into: picture) }
        let time = MediaTime(value: Int64(index) * Int64(frameRate.denominator), timescale: Int32(clamping: frameRate.numerator))
        index += 1
        return (picture.videoFrame(), time)
    }

    private func draw(into picture: PixelBuffer) {
        let luma = picture.planes[0], blue = picture.planes[1], red = picture.planes[2]
        let pan = (index * 4) % width
        texture.withUnsafeBufferPointer { source in
            for row in 0..<height {
                luma.row(row).update(from: source.baseAddress! + row * textureWidth + pan, count: width)
            }
        }
        // A box crossing the picture and a slow colour wash.
        let boxSize = height / 4
        let boxX = Int(Double(width - boxSize) * (0.5 + 0.5 * sin(Double(index) / 23))), boxY = Int(Double(height - boxSize - captionHeight) * (0.5 + 0.5 * cos(Double(index) / 31)))
        for row in boxY..<boxY + boxSize {
            let line = luma.row(row)
            for column in boxX..<boxX + boxSize { line[column] = UInt8(truncatingIfNeeded: 60 + (column - boxX + index) & 0x7F) }
        }
        for row in 0..<red.rowCount {
            let redLine = red.row(row), blueLine = blue.row(row)
            for column in 0..<red.rowByteCount {
                redLine[column] = UInt8(truncatingIfNeeded: 128 + ((column + index) & 63) - 32)
                blueLine[column] = UInt8(truncatingIfNeeded: 128 + ((row + index / 2) & 63) - 32)
            }
        }
        burnCaption(into: picture)
    }

    /// `seconds` as the wall clock is written: `HH:mm:ss.SSS`.
    static func mediaClock(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        return String(format: "%02d:%02d:%02d.%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60, milliseconds / 1000 % 60, milliseconds % 1000)
    }

    /// The clock (wall or media) and frame number, white on black along the bottom.
    private func burnCaption(into picture: PixelBuffer) {
        let clock = isLive ? clockFormat.string(from: Date()) : Self.mediaClock(Double(index) / (frameRate.doubleValue ?? 30))
        let caption = "\(clock)  frame \(String(format: "%06d", index))"
        let top = height - captionHeight
        guard let glyphs = try? text.render(caption, color: .white, bold: true, width: width, height: captionHeight,
                                            pixelSize: captionHeight * 3 / 4) else { return }
        let luma = picture.planes[0], coverage = glyphs.planes[0]
        for row in 0..<captionHeight {
            let line = luma.row(top + row), alpha = coverage.row(row)
            for column in 0..<width { line[column] = UInt8(16 + Int(alpha[column * 4 + 3]) * 219 / 255) }
        }
        for plane in picture.planes.dropFirst() {
            for row in top / 2..<plane.rowCount { plane.row(row).update(repeating: 128, count: plane.rowByteCount) }
        }
    }
}

@available(*, unavailable, message: "one owner uses it, in order")
extension SyntheticCamera: Sendable {}
