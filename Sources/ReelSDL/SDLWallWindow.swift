import CSDL2
import ReelCore
import ReelFFmpeg

/// A camera wall's window: the wall's picture stretched to the window (converted to BGRA
/// by libswscale's accurate path, chroma interpolated, as the player's window does), its keys through
/// `WallKeys`, clicks and double clicks reported with where they landed, `f` for
/// fullscreen. Made and used on the wall's thread.
public final class SDLWallWindow: WallOutput {
    private let title: String
    private var canvas: SDLCanvas?
    private var fullscreen = false
    private let converter = PictureConverter()

    /// A window titled `title`, opened at the first picture at the picture's size.
    public init(title: String) {
        self.title = title
    }

    public func present(_ frame: VideoFrame) {
        guard prepare(width: frame.width, height: frame.height),
              let picture = try? converter.convert(frame, to: .bgra, quality: .accurate), let plane = picture.planes.first else { return }
        guard canvas?.upload(plane.baseAddress, bytesPerRow: plane.bytesPerRow, width: frame.width, height: frame.height) == true else { return }
        draw()
    }

    public func input() -> [WallInput] {
        guard let window = canvas?.window else { return [] }
        var inputs: [WallInput] = []
        var event = SDL_Event()
        var redraw = false
        while SDL_PollEvent(&event) != 0 {
            switch SDL_EventType(event.type) {
            case SDL_QUIT: inputs.append(.quit)
            case SDL_KEYDOWN:
                guard let key = SDLVideoOutput.windowKey(event.key.keysym) else { break }
                if key == .character("f") {
                    fullscreen.toggle()
                    SDL_SetWindowFullscreen(window, fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0)
                    redraw = true
                } else if let input = WallKeys.input(for: key) {
                    inputs.append(input)
                }
            case SDL_WINDOWEVENT where event.window.event == UInt8(SDL_WINDOWEVENT_CLOSE.rawValue): inputs.append(.quit)
            case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
                var width: Int32 = 0, height: Int32 = 0
                SDL_GetWindowSize(window, &width, &height)
                inputs.append(.click(x: Int(event.button.x), y: Int(event.button.y), count: Int(event.button.clicks),
                                     windowWidth: Int(width), windowHeight: Int(height)))
            case SDL_WINDOWEVENT: redraw = true
            default: break
            }
        }
        if redraw { draw() }
        return inputs
    }

    public func close() {
        guard canvas != nil else { return }
        canvas?.destroy()
        canvas = nil
        SDL_QuitSubSystem(SDL_INIT_VIDEO)
    }

    private func prepare(width: Int, height: Int) -> Bool {
        guard canvas == nil else { return true }
        guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else { return false }
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
        SDL_StopTextInput()
        let undefined = Int32(reel_sdl_windowpos_undefined())
        canvas = SDLCanvas(title: title, x: undefined, y: undefined, width: Int32(width), height: Int32(height),
                           flags: SDL_WINDOW_RESIZABLE.rawValue, shown: true)
        return canvas != nil
    }

    private func draw() {
        guard let canvas else { return }
        let size = canvas.outputSize
        canvas.drawPicture(into: PixelRect(x: 0, y: 0, width: Int(size.width), height: Int(size.height)))
        SDL_RenderPresent(canvas.renderer)
    }
}
