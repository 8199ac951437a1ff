/// How `reel vap pack` lays an animation out in the video, as Tencent's VapTool does: the
/// colour region at the top left, the alpha region at half scale beside it (to the right
/// of a portrait animation, below a landscape one), 4 pixels apart, and the video padded
/// to multiples of 16. Fusion masks get a slot each beyond the alpha region (beside it
/// for landscape animations, below it for portrait ones), stacked 4 pixels apart.
public struct VAPPackLayout: Sendable, Equatable {
    /// Pixels between regions, as VapTool leaves them.
    public static let gap = 4

    /// Where the colour and alpha regions go.
    public let layout: VAPLayout
    /// Where each fusion source's masks go in the video, in the order given.
    public let maskSlots: [PixelRect]
    /// The video's width: the regions', padded to a multiple of 16.
    public let videoWidth: Int
    /// The video's height: the regions', padded to a multiple of 16.
    public let videoHeight: Int

    /// For frames of `width`×`height`, with a mask slot of each size in `maskSizes`.
    public init(width: Int, height: Int, maskSizes: [(width: Int, height: Int)] = []) {
        let rgb = PixelRect(x: 0, y: 0, width: width, height: height)
        let alphaWidth = (width + 1) / 2, alphaHeight = (height + 1) / 2
        let alpha = height > width
            ? PixelRect(x: width + Self.gap, y: 0, width: alphaWidth, height: alphaHeight)
            : PixelRect(x: 0, y: height + Self.gap, width: alphaWidth, height: alphaHeight)
        layout = VAPLayout(rgbFrame: rgb, alphaFrame: alpha)
        var slots: [PixelRect] = []
        var x = height > width ? alpha.x : alpha.x + alpha.width + Self.gap
        var y = height > width ? alpha.y + alpha.height + Self.gap : alpha.y
        for size in maskSizes {
            slots.append(PixelRect(x: x, y: y, width: size.width, height: size.height))
            if height > width { y += size.height + Self.gap } else { x += size.width + Self.gap }
        }
        maskSlots = slots
        videoWidth = Self.roundUp(([rgb, alpha] + slots).map { $0.x + $0.width }.max()!)
        videoHeight = Self.roundUp(([rgb, alpha] + slots).map { $0.y + $0.height }.max()!)
    }

    private static func roundUp(_ value: Int) -> Int { (value + 15) / 16 * 16 }

    /// The video's longest edge.
    public var longestEdge: Int { max(videoWidth, videoHeight) }

    /// Pixels a mask's box may grow by on each axis when its picture is scaled (the
    /// bicubic filter's reach), kept free in its slot.
    static let scaledMaskMargin = 4

    /// The largest frame size of `width`×`height`'s shape whose packed video has no edge
    /// longer than `maxEdge`, the masks (of `maskSizes` at full size) scaled with the
    /// frames; the size itself when it fits, nil when not even the smallest frame fits.
    public static func fittingFrameSize(width: Int, height: Int, maskSizes: [(width: Int, height: Int)] = [],
                                        maxEdge: Int) -> (width: Int, height: Int)? {
        let longer = max(width, height)
        func size(longest: Int) -> (width: Int, height: Int) {
            let scale = Double(longest) / Double(longer)
            return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
        }
        func fits(_ longest: Int) -> Bool {
            let frame = size(longest: longest)
            let scale = Double(longest) / Double(longer)
            let masks = maskSizes.map { mask in
                longest == longer ? mask
                    : (min(Int((Double(mask.width) * scale).rounded(.up)) + scaledMaskMargin, frame.width),
                       min(Int((Double(mask.height) * scale).rounded(.up)) + scaledMaskMargin, frame.height))
            }
            return VAPPackLayout(width: frame.width, height: frame.height, maskSizes: masks).longestEdge <= maxEdge
        }
        if fits(longer) { return (width, height) }
        guard fits(1) else { return nil }
        // The packed edge grows with the frame: the largest size that fits, by bisection.
        var low = 1, high = longer
        while high - low > 1 {
            let middle = (low + high) / 2
            if fits(middle) { low = middle } else { high = middle }
        }
        return size(longest: low)
    }

    /// The `vapc` configuration for `frameCount` frames at `framesPerSecond`, with fusion
    /// `sources` and their `frames` when there are any.
    public func config(frameCount: Int, framesPerSecond: Int, sources: [VAPConfig.Source] = [], frames: [VAPConfig.Frame] = []) -> VAPConfig {
        VAPConfig(info: VAPConfig.Info(version: 2, frameCount: frameCount, width: layout.rgbFrame.width, height: layout.rgbFrame.height,
                                       videoWidth: videoWidth, videoHeight: videoHeight, framesPerSecond: framesPerSecond,
                                       isVAPX: !sources.isEmpty, orientation: 0, alphaFrame: layout.alphaFrame, rgbFrame: layout.rgbFrame),
                  sources: sources, frames: frames)
    }

    /// Writes a fusion mask (`strength`, row after row, `size` wide) as gray into slot
    /// `slot` of `picture`, from its top left.
    public func drawMask(_ strength: [UInt8], width: Int, height: Int, slot: Int, into picture: PixelBuffer) {
        let origin = maskSlots[slot]
        for row in 0..<min(height, origin.height) {
            let out = picture.planes[0].row(origin.y + row) + 4 * origin.x
            for column in 0..<min(width, origin.width) {
                let value = strength[row * width + column]
                out[4 * column] = value
                out[4 * column + 1] = value
                out[4 * column + 2] = value
            }
        }
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
