import CSDL2
import ReelCore

/// The picture-in-picture window: small, borderless, always on top, in the bottom right
/// corner of the screen, showing the frames of a ``FrameTap`` (converted to BGRA on the
/// tap's own queue). Made hidden with the main window so that switching costs only a
/// show or a hide; used only on the display thread.
final class SDLPictureInPicture {
    static let title = "Reel — picture-in-picture"
    private(set) var window: OpaquePointer?
    private var renderer: OpaquePointer?
    private var texture: OpaquePointer?
    private var textureSize = (width: 0, height: 0)
    private let tap: FrameTap
    private var subscription: FrameTapSubscription?
    private let latest = LatestFrame()
    private(set) var isShown = false

    init(tap: FrameTap) {
        self.tap = tap
    }

    var windowID: UInt32 { window.map(SDL_GetWindowID) ?? 0 }

    /// Creates the hidden window for a video of `width`×`height`: a third of the video's
    /// width (240 px at least), at its aspect ratio.
    func create(videoWidth: Int, videoHeight: Int) {
        guard window == nil, videoWidth > 0, videoHeight > 0 else { return }
        let width = max(240, videoWidth / 3), height = max(1, width * videoHeight / videoWidth)
        var bounds = SDL_Rect()
        let position: (x: Int32, y: Int32) = SDL_GetDisplayUsableBounds(0, &bounds) == 0
            ? (bounds.x + bounds.w - Int32(width) - 16, bounds.y + bounds.h - Int32(height) - 16)
            : (Int32(reel_sdl_windowpos_undefined()), Int32(reel_sdl_windowpos_undefined()))
        let flags = SDL_WINDOW_BORDERLESS.rawValue | SDL_WINDOW_ALWAYS_ON_TOP.rawValue | SDL_WINDOW_SKIP_TASKBAR.rawValue
            | SDL_WINDOW_HIDDEN.rawValue
        window = SDL_CreateWindow(Self.title, position.x, position.y, Int32(width), Int32(height), flags)
        guard window != nil else { return }
        renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue)
            ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue)
    }

    func show() {
        guard let window, !isShown else { return }
        let latest = self.latest
        subscription = tap.subscribe(format: .bgra, bufferLimit: 1) { sample in latest.store(sample.pixelBuffer) }
        SDL_ShowWindow(window)
        SDL_RaiseWindow(window)
        isShown = true
    }

    func hide() {
        guard let window, isShown else { return }
        subscription?.cancel()
        subscription = nil
        SDL_HideWindow(window)
        isShown = false
    }

    /// Draws the newest frame from the tap, if one came since the last call.
    func refresh() {
        guard isShown, let renderer, let picture = latest.takeNew() else { return }
        if texture == nil || textureSize != (picture.width, picture.height) {
            if let texture { SDL_DestroyTexture(texture) }
            texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                        Int32(picture.width), Int32(picture.height))
            textureSize = (picture.width, picture.height)
        }
        SDL_UpdateTexture(texture, nil, picture.planes[0].baseAddress, Int32(picture.planes[0].bytesPerRow))
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &width, &height)
        var target = SDLVideoOutput.letterbox(aspect: Double(picture.width) / Double(picture.height), width: Int(width), height: Int(height))
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        SDL_RenderCopy(renderer, texture, nil, &target)
        SDL_RenderPresent(renderer)
    }

    func close() {
        subscription?.cancel()
        if let texture { SDL_DestroyTexture(texture) }
        if let renderer { SDL_DestroyRenderer(renderer) }
        if let window { SDL_DestroyWindow(window) }
        texture = nil
        renderer = nil
        window = nil
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
