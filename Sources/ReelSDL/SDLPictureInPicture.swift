import CSDL2
import ReelCore

/// The picture-in-picture window: small, borderless, always on top, in the bottom right
/// corner of the screen, showing the frames of a ``FrameTap`` (converted to BGRA on the
/// tap's own queue, and turned upright there when the tap hands them over as decoded).
/// Made hidden with the main window so that switching costs only a show or a hide; used
/// only on the display thread.
final class SDLPictureInPicture {
    static let title = "Reel — picture-in-picture"
    private var canvas: SDLCanvas?
    private let tap: FrameTap
    private var subscription: FrameTapSubscription?
    private let latest = LatestFrame()
    private(set) var isShown = false

    init(tap: FrameTap) {
        self.tap = tap
    }

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

    func show() {
        guard let window = canvas?.window, !isShown else { return }
        let latest = self.latest, pool = PixelBufferPool(capacity: 2)
        subscription = tap.subscribe(format: .bgra, bufferLimit: 1) { sample in
            latest.store(sample.orientation.isUpright ? sample.pixelBuffer : (try? sample.pixelBuffer.reoriented(sample.orientation, pool: pool)) ?? sample.pixelBuffer)
        }
        SDL_ShowWindow(window)
        SDL_RaiseWindow(window)
        isShown = true
    }

    func hide() {
        guard let window = canvas?.window, isShown else { return }
        subscription?.cancel()
        subscription = nil
        SDL_HideWindow(window)
        isShown = false
    }

    /// Draws the newest frame from the tap, if one came since the last call.
    func refresh() {
        guard isShown, var canvas, let picture = latest.takeNew(),
              canvas.upload(picture.planes[0].baseAddress, bytesPerRow: picture.planes[0].bytesPerRow,
                            width: picture.width, height: picture.height) else { return }
        let size = canvas.outputSize
        canvas.drawPicture(into: VideoGravity.fit.placement(pictureWidth: picture.width, pictureHeight: picture.height,
                                                            aspect: Double(picture.width) / Double(picture.height),
                                                            width: Int(size.width), height: Int(size.height)).destination)
        SDL_RenderPresent(canvas.renderer)
        self.canvas = canvas
    }

    func close() {
        subscription?.cancel()
        canvas?.destroy()
        canvas = nil
    }
}

/// The newest picture a tap handed over, kept until the display thread takes it.
private final class LatestFrame: @unchecked Sendable {
    private let lock = ConditionLock()
    private var picture: PixelBuffer?

    func store(_ buffer: PixelBuffer) { lock.withLock { picture = buffer } }

    func takeNew() -> PixelBuffer? {
        lock.withLock {
            defer { picture = nil }
            return picture
        }
    }
}
