import CSDL2
import ReelCore

/// The picture-in-picture window: small, borderless, always on top, in the bottom right
/// corner of the screen, showing what the main window shows (the frame turned upright,
/// with its subtitles, or the 360° view), handed over as the BGRA picture the main window
/// uploads. Made hidden with the main window so that switching costs only a show or a
/// hide; used only on the display thread.
final class SDLPictureInPicture {
    static let title = "Reel — picture-in-picture"
    private var canvas: SDLCanvas?
    private var pictureSize: (width: Int, height: Int)?
    private(set) var isShown = false

    var windowID: UInt32 { canvas?.windowID ?? 0 }
    var exists: Bool { canvas != nil }

    /// Creates the hidden window for a video of `width`×`height`: a third of the video's
    /// width (240 px at least), at its aspect ratio.
    func create(videoWidth: Int, videoHeight: Int) {
        guard canvas == nil, videoWidth > 0, videoHeight > 0 else { return }
        let width = max(240, videoWidth / 3), height = max(1, width * videoHeight / videoWidth)
        var bounds = SDL_Rect()
        let position: (x: Int32, y: Int32) = SDL_GetDisplayUsableBounds(0, &bounds) == 0
            ? (bounds.x + bounds.w - Int32(width) - 16, bounds.y + bounds.h - Int32(height) - 16)
            : (Int32(reel_sdl_windowpos_undefined()), Int32(reel_sdl_windowpos_undefined()))
        let flags = SDL_WINDOW_BORDERLESS.rawValue | SDL_WINDOW_ALWAYS_ON_TOP.rawValue | SDL_WINDOW_SKIP_TASKBAR.rawValue
        canvas = SDLCanvas(title: Self.title, x: position.x, y: position.y, width: Int32(width), height: Int32(height), flags: flags, shown: false)
    }

    /// Shows the window with the last picture handed over.
    func show() {
        guard let window = canvas?.window, !isShown else { return }
        SDL_ShowWindow(window)
        SDL_RaiseWindow(window)
        isShown = true
        draw()
    }

    func hide() {
        guard let window = canvas?.window, isShown else { return }
        SDL_HideWindow(window)
        isShown = false
    }

    /// Takes the main window's picture (BGRA); drawn at once when the window is shown.
    func present(_ pixels: UnsafeRawPointer, bytesPerRow: Int, width: Int, height: Int) {
        guard isShown, var canvas, canvas.upload(pixels, bytesPerRow: bytesPerRow, width: width, height: height) else { return }
        self.canvas = canvas
        pictureSize = (width, height)
        draw()
    }

    /// Draws the last picture again (a window shown or exposed).
    func draw() {
        guard isShown, let canvas, let pictureSize else { return }
        let size = canvas.outputSize
        canvas.drawPicture(into: VideoGravity.fit.placement(pictureWidth: pictureSize.width, pictureHeight: pictureSize.height,
                                                            aspect: Double(pictureSize.width) / Double(pictureSize.height),
                                                            width: Int(size.width), height: Int(size.height)).destination)
        SDL_RenderPresent(canvas.renderer)
    }

    func close() {
        canvas?.destroy()
        canvas = nil
    }
}
