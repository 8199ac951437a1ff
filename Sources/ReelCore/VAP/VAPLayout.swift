/// Where a VAP video keeps its colour and its alpha: two rectangles of the decoded picture.
public struct VAPLayout: Sendable, Equatable, Codable {
    public var rgbFrame: PixelRect
    public var alphaFrame: PixelRect

    public init(rgbFrame: PixelRect, alphaFrame: PixelRect) {
        self.rgbFrame = rgbFrame
        self.alphaFrame = alphaFrame
    }

    /// The size of the composited picture: the colour region's.
    public var outputWidth: Int { rgbFrame.width }
    public var outputHeight: Int { rgbFrame.height }

    /// For a video without a `vapc` box: which side holds the alpha. The picture is cut
    /// into two equal halves (the smaller half when the size is odd, the middle column or
    /// row left out); VAP's default is alpha on the left.
    public enum AlphaSide: String, Sendable, CaseIterable, Codable {
        case left, right, top, bottom
    }

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

    public init(_ info: VAPConfig.Info) {
        self.init(rgbFrame: info.rgbFrame, alphaFrame: info.alphaFrame)
    }

    /// Both regions lie inside a `width`×`height` picture.
    public func fits(width: Int, height: Int) -> Bool {
        rgbFrame.fits(width: width, height: height) && alphaFrame.fits(width: width, height: height)
    }
}
