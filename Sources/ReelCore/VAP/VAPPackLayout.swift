/// How `reel vap pack` lays an animation out in the video, as Tencent's VapTool does: the
/// colour region at the top left, the alpha region at half scale beside it (to the right
/// of a portrait animation, below a landscape one), 4 pixels apart, and the video padded
/// to multiples of 16.
public struct VAPPackLayout: Sendable, Equatable {
    public static let gap = 4

    public let layout: VAPLayout
    public let videoWidth: Int
    public let videoHeight: Int

    /// For frames of `width`×`height`.
    public init(width: Int, height: Int) {
        let rgb = PixelRect(x: 0, y: 0, width: width, height: height)
        let alphaWidth = (width + 1) / 2, alphaHeight = (height + 1) / 2
        let alpha = height > width
            ? PixelRect(x: width + Self.gap, y: 0, width: alphaWidth, height: alphaHeight)
            : PixelRect(x: 0, y: height + Self.gap, width: alphaWidth, height: alphaHeight)
        layout = VAPLayout(rgbFrame: rgb, alphaFrame: alpha)
        videoWidth = Self.roundUp(max(rgb.width, alpha.x + alpha.width))
        videoHeight = Self.roundUp(max(rgb.height, alpha.y + alpha.height))
    }

    private static func roundUp(_ value: Int) -> Int { (value + 15) / 16 * 16 }

    /// The `vapc` configuration for `frameCount` frames at `framesPerSecond`.
    public func config(frameCount: Int, framesPerSecond: Int) -> VAPConfig {
        VAPConfig(info: VAPConfig.Info(version: 2, frameCount: frameCount, width: layout.rgbFrame.width, height: layout.rgbFrame.height,
                                       videoWidth: videoWidth, videoHeight: videoHeight, framesPerSecond: framesPerSecond,
                                       isVAPX: false, orientation: 0, alphaFrame: layout.alphaFrame, rgbFrame: layout.rgbFrame))
    }

    /// One video picture (opaque RGBA of the video size) from a premultiplied RGBA frame:
    /// the colour as it is (premultiplied over black, as VAP stores it), the alpha as gray
    /// averaged over 2×2 blocks, black elsewhere.
    public func compose(_ frame: PixelBuffer, into picture: PixelBuffer) throws {
        guard frame.format == .rgba, frame.width == layout.rgbFrame.width, frame.height == layout.rgbFrame.height else {
            throw PixelConversionError.destinationSize(expected: (layout.rgbFrame.width, layout.rgbFrame.height), got: (frame.width, frame.height))
        }
        guard picture.format == .rgba, picture.width == videoWidth, picture.height == videoHeight else {
            throw PixelConversionError.destinationSize(expected: (videoWidth, videoHeight), got: (picture.width, picture.height))
        }
        for row in 0..<videoHeight {
            let out = picture.planes[0].row(row)
            out.update(repeating: 0, count: 4 * videoWidth)
            for column in 0..<videoWidth { out[4 * column + 3] = 255 }
        }
        for row in 0..<frame.height {
            let source = frame.planes[0].row(row), out = picture.planes[0].row(row)
            for column in 0..<frame.width {
                out[4 * column] = source[4 * column]
                out[4 * column + 1] = source[4 * column + 1]
                out[4 * column + 2] = source[4 * column + 2]
            }
        }
        let alpha = layout.alphaFrame
        for row in 0..<alpha.height {
            let top = min(2 * row, frame.height - 1), bottom = min(2 * row + 1, frame.height - 1)
            let upper = frame.planes[0].row(top), lower = frame.planes[0].row(bottom)
            let out = picture.planes[0].row(alpha.y + row) + 4 * alpha.x
            for column in 0..<alpha.width {
                let left = min(2 * column, frame.width - 1), right = min(2 * column + 1, frame.width - 1)
                let sum = Int(upper[4 * left + 3]) + Int(upper[4 * right + 3]) + Int(lower[4 * left + 3]) + Int(lower[4 * right + 3])
                let value = UInt8((sum + 2) / 4)
                out[4 * column] = value
                out[4 * column + 1] = value
                out[4 * column + 2] = value
            }
        }
    }
}
