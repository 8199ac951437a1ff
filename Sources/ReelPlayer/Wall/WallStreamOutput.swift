import Foundation
import ReelCore
import ReelFFmpeg

/// The video output of one stream of one camera on a wall: each picture its player
/// presents is scaled, on that player's display thread, to the size its tile wants now and
/// kept for the wall to draw; the frame itself is kept too (no copy), so that a tile that
/// changes size (one that fills the window, or goes back) shows it again at once, scaled anew.
final class WallStreamOutput: VideoOutput, @unchecked Sendable {
    /// The last frame presented, and the picture scaled from it when its tile was on screen.
    struct Latest {
        var frame: VideoFrame
        var picture: PixelBuffer?
        /// Moves on with every picture presented.
        var serial: Int
    }

    private let lock = NSLock()
    private var latest: Latest?
    private let converter = SwscaleConverter()
    private let pool = PixelBufferPool(capacity: 3, shapeLimit: 2)
    /// The size a `width` × `height` frame shown at `aspect` takes in its tile now; nil when
    /// its tile is not on screen.
    private let size: @Sendable (_ width: Int, _ height: Int, _ aspect: Double) -> (width: Int, height: Int)?
    /// Told once a picture is ready, with this output: `first` for the stream's first.
    private let presented: @Sendable (_ output: WallStreamOutput, _ first: Bool) -> Void

    init(size: @escaping @Sendable (Int, Int, Double) -> (width: Int, height: Int)?,
         presented: @escaping @Sendable (WallStreamOutput, Bool) -> Void) {
        self.size = size
        self.presented = presented
    }

    /// The last picture presented, if any.
    var current: Latest? { lock.withLock { latest } }

    func present(_ frame: VideoFrame) {
        let picture = size(frame.width, frame.height, Self.aspect(of: frame)).flatMap { wanted in
            try? Self.scale(frame, width: wanted.width, height: wanted.height, converter: converter, pool: pool)
        }
        let first = lock.withLock { () -> Bool in
            let serial = (latest?.serial ?? 0) + 1
            latest = Latest(frame: frame, picture: picture, serial: serial)
            return serial == 1
        }
        presented(self, first)
    }

    func idle(status: PlaybackStatus) -> [UserCommand] { [] }

    var wantsIdle: Bool { false }

    func close() {}

    /// The shape `frame` is shown at: its width over its height, times its pixels' aspect.
    static func aspect(of frame: VideoFrame) -> Double {
        let pixel = frame.sampleAspectRatio.numerator > 0 && frame.sampleAspectRatio.denominator > 0
            ? Double(frame.sampleAspectRatio.numerator) / Double(frame.sampleAspectRatio.denominator) : 1
        return Double(frame.width) * pixel / Double(max(frame.height, 1))
    }

    /// `frame` scaled bilinearly to `width` × `height` limited-range 4:2:0 (its matrix kept),
    /// in a buffer from `pool`. libswscale brings JPEG's full range (`yuvj420p`) to limited
    /// itself; a 4:2:0 frame tagged full range is handed to it as `yuvj420p` for that.
    static func scale(_ frame: VideoFrame, width: Int, height: Int, converter: SwscaleConverter, pool: PixelBufferPool) throws -> PixelBuffer {
        var source = frame
        if frame.color.range == .full && frame.pixelFormat == .yuv420p { source.pixelFormat = .yuvj420p }
        let picture = try pool.makeBuffer(format: .i420, width: width, height: height, matrix: YUVMatrix(frame.color.matrix), range: .limited)
        try converter.convert(source, into: picture, flags: .bilinear)
        return picture
    }
}
