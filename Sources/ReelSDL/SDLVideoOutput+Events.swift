import CSDL2
import ReelCore

// The window's events: keys through WindowKeys, clicks on the seek bar and the pointer
// over it, closing either window; the commands go back to the display thread.
extension SDLVideoOutput {
    public func idle(status: PlaybackStatus) -> [UserCommand] {
        lastStatus = status
        guard window != nil else { return [] }
        var commands: [UserCommand] = []
        var event = SDL_Event()
        var redraw = false
        let pictureInPictureID = pictureInPicture?.windowID ?? 0
        let size = canvas?.outputSize ?? (width: 0, height: 0)
        var panoramaMoved = false
        while SDL_PollEvent(&event) != 0 {
            if let panorama, panorama.handle(event, pictureWidth: size.width, pictureHeight: size.height - barHeight) {
                panoramaMoved = true
                continue
            }
            switch SDL_EventType(event.type) {
            case SDL_QUIT: commands.append(.quit)
            case SDL_KEYDOWN:
                guard let key = Self.windowKey(event.key.keysym), let action = WindowKeys.action(for: key) else { break }
                switch action {
                case .command(let command): commands.append(command)
                case .cycleGravity where panorama == nil:
                    gravity = gravity.next
                    redraw = true
                case .togglePictureInPicture where pictureInPicture != nil: switchRequested.toggle()
                case .toggleKeyList:
                    if helpLabels == nil {
                        helpLabels = WindowKeys.bindings.map { _ in (SDLTextLabel(), SDLTextLabel()) }
                    } else {
                        destroyHelp()
                    }
                    redraw = true
                case .cycleGravity, .togglePictureInPicture: break
                }
            case SDL_WINDOWEVENT where event.window.event == UInt8(SDL_WINDOWEVENT_CLOSE.rawValue):
                // Closing the main window while the small one shows keeps playing there;
                // closing the small one returns to the main window.
                if event.window.windowID == pictureInPictureID {
                    switchRequested = true
                } else if isInPictureInPicture {
                    SDL_HideWindow(window)
                } else {
                    commands.append(.quit)
                }
            case SDL_MOUSEBUTTONDOWN where event.button.windowID == pictureInPictureID && pictureInPictureID != 0:
                if event.button.clicks >= 2 { switchRequested = true }
            case SDL_MOUSEBUTTONDOWN:
                var width: Int32 = 0, height: Int32 = 0
                SDL_GetWindowSize(window, &width, &height)
                if event.button.y >= height - barHeight, width > 0 {
                    commands.append(.seekTo(fraction: min(max(Double(event.button.x) / Double(width), 0), 1)))
                }
            case SDL_MOUSEMOTION where event.motion.windowID != pictureInPictureID || pictureInPictureID == 0:
                var width: Int32 = 0, height: Int32 = 0
                SDL_GetWindowSize(window, &width, &height)
                let over = event.motion.y >= height - barHeight && width > 0
                if pointerMoved(toBarFraction: over ? min(max(Double(event.motion.x) / Double(width), 0), 1) : nil) { redraw = true }
            case SDL_WINDOWEVENT where event.window.event == UInt8(SDL_WINDOWEVENT_LEAVE.rawValue):
                _ = pointerMoved(toBarFraction: nil)
                redraw = true
            case SDL_WINDOWEVENT: redraw = true
            default: break
            }
        }
        if previewChanged { redraw = true }
        if commands.contains(.toggleFullscreen) {
            fullscreen.toggle()
            SDL_SetWindowFullscreen(window, fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0)
            redraw = true
        }
        // Paused, no frame comes to carry the switch: now.
        if status.state != .playing { performRequestedSwitch() }
        if redraw { pictureInPicture?.draw() }
        if let panorama, panoramaMoved || panorama.exactMapsReady || redraw {
            drawPanorama()
        }
        // While paused nothing else redraws: keep the display alive at 4 Hz.
        let now = monotonicSeconds()
        if !isInPictureInPicture && (redraw || now - lastDraw > 0.25) { draw() }
        return commands
    }

    /// The key `key` types, as ``WindowKeys`` names it. `?`, `<`, `>` and `#` are keys of
    /// their own on some layouts, and shifted `/`, `,`, `.` and `3` on a US one (SDL names
    /// a key by what it bears unshifted).
    static func windowKey(_ key: SDL_Keysym) -> WindowKey? {
        let shifted = key.mod & UInt16(KMOD_SHIFT.rawValue) != 0
        switch Int(key.sym) {
        case Int(SDLK_SPACE.rawValue): return .space
        case Int(SDLK_LEFT.rawValue): return .left
        case Int(SDLK_RIGHT.rawValue): return .right
        case Int(SDLK_UP.rawValue): return .up
        case Int(SDLK_DOWN.rawValue): return .down
        case Int(SDLK_PAGEUP.rawValue): return .pageUp
        case Int(SDLK_PAGEDOWN.rawValue): return .pageDown
        case Int(SDLK_RETURN.rawValue), Int(SDLK_KP_ENTER.rawValue): return .enter
        case Int(SDLK_ESCAPE.rawValue): return .escape
        case Int(SDLK_END.rawValue): return .end
        case Int(SDLK_SLASH.rawValue) where shifted: return .character("?")
        case Int(SDLK_COMMA.rawValue) where shifted: return .character("<")
        case Int(SDLK_PERIOD.rawValue) where shifted: return .character(">")
        case Int(SDLK_3.rawValue) where shifted: return .character("#")
        case Int(SDLK_a.rawValue)...Int(SDLK_z.rawValue) where shifted: return .character(Character(UnicodeScalar(UInt8(key.sym) - 32)))
        case 0x20..<0x7F: return .character(Character(UnicodeScalar(UInt8(key.sym))))
        default: return nil
        }
    }
}
