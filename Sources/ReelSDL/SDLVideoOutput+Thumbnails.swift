import CSDL2
import ReelCore
import ReelFFmpeg

// The seek bar's preview: with the pointer over the bar, a thumbnail of that moment above
// it (the keyframe at or before it, made on a low-priority thread: ThumbnailPreview) and
// the time a click there seeks to.
extension SDLVideoOutput {
    /// A thumbnail's width on screen; its height follows the picture's aspect.
    static let thumbnailWidth = 160

    /// The pointer moved: over the bar at `x` of `width` (or off it, for nil), which asks
    /// for the thumbnail there. True when the preview must be drawn again.
    func pointerMoved(toBarFraction fraction: Double?) -> Bool {
        guard fraction != hoverFraction else { return false }
        hoverFraction = fraction
        guard let fraction, showsThumbnails, let status = lastStatus, status.timeshiftWindow == nil,
              let duration = status.duration, duration > 0, let input = status.input else { return true }
        if preview?.url != input {
            preview?.close()
            let height = max(Int((Double(Self.thumbnailWidth) / max(aspect, 0.1)).rounded() / 2) * 2, 2)
            preview = ThumbnailPreview(url: input, width: Self.thumbnailWidth, height: height)
        }
        preview?.request(fraction * duration)
        return true
    }

    /// Whether a thumbnail came that is not on screen yet.
    var previewChanged: Bool { hoverFraction != nil && (preview?.madeCount ?? 0) != previewTextureCount }

    /// Draws the newest thumbnail above the bar at the pointer, and the time under the pointer.
    func drawPreview(width: Int32, barTop: Int32) {
        guard let fraction = hoverFraction, let renderer, let preview, let latest = preview.latest,
              let duration = lastStatus?.duration else { return }
        let thumbnail = latest.thumbnail
        let count = preview.madeCount
        if previewTexture == nil || previewTextureSize != (thumbnail.width, thumbnail.height) {
            if let previewTexture { SDL_DestroyTexture(previewTexture) }
            previewTexture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGB24.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                               Int32(thumbnail.width), Int32(thumbnail.height))
            previewTextureSize = (thumbnail.width, thumbnail.height)
            previewTextureCount = -1
        }
        guard let previewTexture else { return }
        if previewTextureCount != count {
            thumbnail.rgb.withUnsafeBytes { _ = SDL_UpdateTexture(previewTexture, nil, $0.baseAddress, Int32(thumbnail.width * 3)) }
            previewTextureCount = count
        }
        let (w, h) = (Int32(thumbnail.width), Int32(thumbnail.height))
        let x = min(max(Int32(Double(width) * fraction) - w / 2, 0), max(width - w, 0))
        let y = max(barTop - h - 4, 0)
        shade(SDL_Rect(x: x - 2, y: y - 20, w: w + 4, h: h + 22))
        var target = SDL_Rect(x: x, y: y, w: w, h: h)
        SDL_RenderCopy(renderer, previewTexture, nil, &target)
        // The time a click here seeks to, above the picture.
        let scale: Int32 = 2
        for cell in OSDFont.cells(OSDFont.clock(fraction * duration)) {
            fill(SDL_Rect(x: x + 4 + Int32(cell.x) * scale, y: y - 17 + Int32(cell.y) * scale, w: scale, h: scale), 230, 230, 230)
        }
    }

    /// Stops the thumbnails' thread and frees the texture (on the display thread).
    func closePreview() {
        preview?.close()
        preview = nil
        if let previewTexture { SDL_DestroyTexture(previewTexture) }
        previewTexture = nil
    }
}
