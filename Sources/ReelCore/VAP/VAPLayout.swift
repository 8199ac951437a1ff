/// Where a VAP video keeps its colour and its alpha: two rectangles of the decoded picture.
public struct VAPLayout: Sendable, Equatable, Codable {
    /// Where the colour picture lies in the decoded video.
    public var rgbFrame: PixelRect
    /// Where the alpha picture lies in the decoded video (gray: luma is the opacity).
    public var alphaFrame: PixelRect

    /// A layout from its two rectangles.
    public init(rgbFrame: PixelRect, alphaFrame: PixelRect) {
        self.rgbFrame = rgbFrame
        self.alphaFrame = alphaFrame
    }

    /// The size of the composited picture: the colour region's.
    public var outputWidth: Int { rgbFrame.width }
    /// The composited picture's height: the colour region's.
    public var outputHeight: Int { rgbFrame.height }

    /// For a video without a `vapc` box: which side holds the alpha. The picture is cut
    /// into two equal halves (the smaller half when the size is odd, the middle column or
    /// row left out); VAP's default is alpha on the left.
    public enum AlphaSide: String, Sendable, CaseIterable, Codable {
        /// Alpha in the left half, colour in the right (VAP's default).
        case left
        /// Alpha in the right half, colour in the left.
        case right
        /// Alpha in the top half, colour in the bottom.
        case top
        /// Alpha in the bottom half, colour in the top.
        case bottom
    }

    /// The layout of a video of this size cut in two halves, `side` holding the alpha.
    public init(alpha side: AlphaSide, videoWidth: Int, videoHeight: Int) {
        let halfWidth = videoWidth / 2, halfHeight = videoHeight / 2
        let first: PixelRect, second: PixelRect
        switch side {
        case .left, .right:
            first = PixelRect(x: 0, y: 0, width: halfWidth, height: videoHeight)
            second = PixelRect(x: videoWidth - halfWidth, y: 0, width: halfWidth, height: videoHeight)
        case .top, .bottom:
            first = PixelRect(x: 0, y: 0, width: videoWidth, height: halfHeight)
            second = PixelRect(x: 0, y: videoHeight - halfHeight, width: videoWidth, height: halfHeight)
        }
        let alphaFirst = side == .left || side == .top
        self.init(rgbFrame: alphaFirst ? second : first, alphaFrame: alphaFirst ? first : second)
    }

    /// The layout a `vapc` box describes.
    public init(_ info: VAPConfig.Info) {
        self.init(rgbFrame: info.rgbFrame, alphaFrame: info.alphaFrame)
    }

    /// Both regions lie inside a `width`×`height` picture.
    public func fits(width: Int, height: Int) -> Bool {
        rgbFrame.fits(width: width, height: height) && alphaFrame.fits(width: width, height: height)
    }
}
