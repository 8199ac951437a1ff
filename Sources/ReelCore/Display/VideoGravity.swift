/// How a picture fills a window whose shape differs from its own (SGPlayer's video
/// gravity, AVLayerVideoGravity on Apple's systems).
public enum VideoGravity: String, Sendable, CaseIterable {
    /// All of the picture, as large as fits, with black bars (letterbox or pillarbox).
    case fit
    /// The whole window, the picture's edges cut off where its shape differs.
    case fill
    /// The whole window and all of the picture, its shape changed.
    case stretch

    /// The next in the order fit, fill, stretch (a key cycles through them).
    public var next: VideoGravity {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// Which part of a `pictureWidth`×`pictureHeight` picture is drawn where in a
    /// `width`×`height` area, the picture shown at `aspect` (its display aspect ratio:
    /// width over height once sample shapes are applied). Rounded to whole pixels, centred.
    public func placement(pictureWidth: Int, pictureHeight: Int, aspect: Double, width: Int, height: Int)
        -> (source: PixelRect, destination: PixelRect) {
        let whole = PixelRect(x: 0, y: 0, width: pictureWidth, height: pictureHeight)
        let area = PixelRect(x: 0, y: 0, width: width, height: height)
        guard pictureWidth > 0, pictureHeight > 0, width > 0, height > 0, aspect > 0, aspect.isFinite else { return (whole, area) }
        let areaAspect = Double(width) / Double(height)
        switch self {
        case .stretch:
            return (whole, area)
        case .fit:
            var w = width, h = Int((Double(width) / aspect).rounded())
            if h > height { h = height; w = Int((Double(height) * aspect).rounded()) }
            return (whole, PixelRect(x: (width - w) / 2, y: (height - h) / 2, width: max(w, 1), height: max(h, 1)))
        case .fill:
            // The part of the picture with the area's shape: shown at `aspect`, a source
            // column is `aspect * pictureHeight / pictureWidth` display units wide.
            let columnsPerRow = aspect * Double(pictureHeight) / Double(pictureWidth)
            if areaAspect < aspect {
                // Narrower than the picture: cut the sides.
                let w = Int((Double(pictureHeight) * areaAspect / columnsPerRow).rounded())
                let kept = min(max(w, 1), pictureWidth)
                return (PixelRect(x: (pictureWidth - kept) / 2, y: 0, width: kept, height: pictureHeight), area)
            }
            let h = Int((Double(pictureWidth) * columnsPerRow / areaAspect).rounded())
            let kept = min(max(h, 1), pictureHeight)
            return (PixelRect(x: 0, y: (pictureHeight - kept) / 2, width: pictureWidth, height: kept), area)
        }
    }
}
