/// Where an overlay (a gift animation) is drawn over the picture: a named spot, or a
/// rectangle in the video's pixels or the window's, scaled by a factor; the animation keeps
/// its shape inside the area it is given.
public struct OverlayPlacement: Sendable, Hashable {
    /// The area the overlay is fitted into.
    public enum Area: Sendable, Hashable {
        /// The whole picture.
        case center
        /// The picture's lower half, the animation resting on its bottom edge.
        case bottom
        /// The picture's upper half, hanging from its top edge.
        case top
        /// A rectangle in the video's pixels.
        case video(PixelRect)
        /// A rectangle in the window's pixels (where the picture is drawn inside the window).
        case window(PixelRect)
    }

    /// The area.
    public var area: Area
    /// How much of the area the animation takes (1: as large as fits).
    public var scale: Double

    /// A placement; `scale` is kept within 0.01…1.
    public init(area: Area = .center, scale: Double = 1) {
        self.area = area
        self.scale = min(max(scale.isFinite ? scale : 1, 0.01), 1)
    }

    /// Reads `center`, `top`, `bottom`, `X:Y:W:H` (video pixels) or `X:Y:W:Hw` (window
    /// pixels); nil for anything else.
    public static func area(parsing text: String) -> Area? {
        switch text.lowercased() {
        case "center", "centre": return .center
        case "bottom": return .bottom
        case "top": return .top
        default:
            let inWindow = text.hasSuffix("w") || text.hasSuffix("W")
            let numbers = (inWindow ? text.dropLast() : Substring(text)).split(separator: ":", omittingEmptySubsequences: false)
            guard numbers.count == 4 else { return nil }
            let values = numbers.compactMap { Int($0) }
            guard values.count == 4, values[2] > 0, values[3] > 0, values.allSatisfy({ abs($0) <= 65_536 }) else { return nil }
            let rect = PixelRect(x: values[0], y: values[1], width: values[2], height: values[3])
            return inWindow ? .window(rect) : .video(rect)
        }
    }

    /// Where a `size` animation is drawn on a `picture`-sized video: the area (a window
    /// rectangle mapped back through `pictureInWindow`, the picture's place in the window),
    /// the animation fitted in it at ``scale``, centred across, and down as the area says.
    /// Nil when the picture or the animation has no size.
    public func rect(animation size: (width: Int, height: Int), picture: (width: Int, height: Int),
                     pictureInWindow: PixelRect? = nil) -> PixelRect? {
        guard size.width > 0, size.height > 0, picture.width > 0, picture.height > 0 else { return nil }
        let whole = PixelRect(x: 0, y: 0, width: picture.width, height: picture.height)
        let region: PixelRect
        switch area {
        case .center: region = whole
        case .bottom: region = PixelRect(x: 0, y: picture.height / 2, width: picture.width, height: picture.height - picture.height / 2)
        case .top: region = PixelRect(x: 0, y: 0, width: picture.width, height: picture.height / 2)
        case .video(let rect): region = rect
        case .window(let rect):
            guard let shown = pictureInWindow, shown.width > 0, shown.height > 0 else { return nil }
            let scaleX = Double(picture.width) / Double(shown.width), scaleY = Double(picture.height) / Double(shown.height)
            region = PixelRect(x: Int((Double(rect.x - shown.x) * scaleX).rounded()), y: Int((Double(rect.y - shown.y) * scaleY).rounded()),
                               width: max(Int((Double(rect.width) * scaleX).rounded()), 1),
                               height: max(Int((Double(rect.height) * scaleY).rounded()), 1))
        }
        let fit = min(Double(region.width) / Double(size.width), Double(region.height) / Double(size.height)) * scale
        let width = max(Int((Double(size.width) * fit).rounded()), 1), height = max(Int((Double(size.height) * fit).rounded()), 1)
        let x = region.x + (region.width - width) / 2
        let y: Int
        switch area {
        case .bottom: y = region.y + region.height - height
        case .top: y = region.y
        default: y = region.y + (region.height - height) / 2
        }
        return PixelRect(x: x, y: y, width: width, height: height)
    }
}
