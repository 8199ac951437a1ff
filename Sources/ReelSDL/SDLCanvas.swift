import CSDL2
import ReelCore

extension SDL_Rect {
    init(_ rect: PixelRect) { self.init(x: Int32(rect.x), y: Int32(rect.y), w: Int32(rect.width), h: Int32(rect.height)) }
}

/// A window with its renderer and a streaming BGRA texture for the picture: what both
/// the main window and the picture-in-picture window draw with.
struct SDLCanvas {
    private(set) var window: OpaquePointer?
    private(set) var renderer: OpaquePointer?
    private var texture: OpaquePointer?
    private var textureSize = (width: 0, height: 0)

    /// The window is made hidden and shown (when `shown`) only once its renderer exists:
    /// making a renderer can unmap and map the window again (SDL 2 recreates it for
    /// OpenGL), and a window manager's close request that arrives in between is lost, so
    /// a window must not be visible, and closable, before then.
    init?(title: String, x: Int32, y: Int32, width: Int32, height: Int32, flags: UInt32, shown: Bool) {
        window = SDL_CreateWindow(title, x, y, width, height, flags | SDL_WINDOW_HIDDEN.rawValue)
        guard window != nil else { return nil }
        renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue)
            ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue)
        guard renderer != nil else {
            SDL_DestroyWindow(window)
            return nil
        }
        if shown { SDL_ShowWindow(window) }
    }

    var windowID: UInt32 { window.map(SDL_GetWindowID) ?? 0 }

    /// Uploads a BGRA picture (rows `bytesPerRow` apart) to the texture, remade when the size changes.
    mutating func upload(_ pixels: UnsafeRawPointer, bytesPerRow: Int, width: Int, height: Int) -> Bool {
        if texture == nil || textureSize != (width, height) {
            if let texture { SDL_DestroyTexture(texture) }
            texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                        Int32(width), Int32(height))
            textureSize = (width, height)
        }
        guard texture != nil else { return false }
        SDL_UpdateTexture(texture, nil, pixels, Int32(bytesPerRow))
        return true
    }

    /// Clears to black and copies the picture's `source` part (all of it by default) into `target`.
    func drawPicture(into target: PixelRect, from source: PixelRect? = nil) {
        var target = SDL_Rect(target)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        guard let texture else { return }
        if var part = source.map(SDL_Rect.init) {
            SDL_RenderCopy(renderer, texture, &part, &target)
        } else {
            SDL_RenderCopy(renderer, texture, nil, &target)
        }
    }

    var outputSize: (width: Int32, height: Int32) {
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &width, &height)
        return (width, height)
    }

    mutating func destroy() {
        if let texture { SDL_DestroyTexture(texture) }
        if let renderer { SDL_DestroyRenderer(renderer) }
        if let window { SDL_DestroyWindow(window) }
        texture = nil
        renderer = nil
        window = nil
    }
}
