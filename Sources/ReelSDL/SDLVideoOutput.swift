import CSDL2
import Foundation
import ReelCore
import ReelFFmpeg
import ReelText

/// A resizable SDL2 window: the picture at its display aspect ratio (letterboxed, or as
/// the window's gravity says), an on-screen display (time, duration, state, volume, speed,
/// the chapter, a seek bar), and the keys of mpv and ffplay. `p` switches to
/// picture-in-picture (a small always-on-top window showing the same picture) and back.
/// Created on the display thread at the first frame, used only there.
public final class SDLVideoOutput: VideoOutput, @unchecked Sendable {
    private let title: String
    private var canvas: SDLCanvas?
    private var window: OpaquePointer? { canvas?.window }
    private var renderer: OpaquePointer? { canvas?.renderer }
    private var aspect = 1.0
    private var converter = PictureConverter()
    private var fullscreen = false
    private var lastStatus: PlaybackStatus?
    private var lastDraw = 0.0
    private var hasPicture = false
    /// Height of the bar at the bottom, pixels.
    private let barHeight: Int32 = 28
    private let pictureInPicture: SDLPictureInPicture?
    /// A switch to or from picture-in-picture waits for the next presented frame, so that
    /// its window round trips use the time until the following one instead of delaying it.
    private var switchRequested: Bool
    private let panorama: SDLPanoramaControl?
    private let frameTap: FrameTap?
    private let options: SDLWindowOptions
    private var gravity: VideoGravity
    /// The size of the picture on screen, in pixels.
    private var pictureSize = (width: 0, height: 0)
    /// The chapter's title in the bar, with the font it is drawn in (none when no font loads).
    private var chapterLabel = SDLTextLabel()
    private lazy var rasterizer = try? TextRasterizer()
    /// The frame on screen, kept to draw the 360° view again when it moves while paused.
    private var lastFrame: VideoFrame?
    /// The picture on screen as uploaded (BGRA), kept for picture-in-picture to start with.
    private var lastPicture: VideoFrame?
    /// What goes over the 360° view of the frame on screen (its subtitles).
    private var lastViewOverlay: PictureOverlay?
    /// The passing message at the top left (a screenshot written, an A-B loop point).
    private var messageLabel = SDLTextLabel()
    /// The list of keys `?` shows over the picture, a label per line.
    private var helpLabels: [(keys: SDLTextLabel, action: SDLTextLabel)]?

    /// A window, opened at the first frame.
    ///
    /// - Parameters:
    ///   - title: the window's title.
    ///   - frameTap: the player's tap, which a 360° view hands the views it draws.
    ///   - startInPictureInPicture: show the small window instead of this one from the start.
    ///   - panorama: show equirectangular frames as a 360° view with these settings.
    ///   - window: the window's size, position, gravity, aspect, fullscreen and stacking.
    public init(title: String, frameTap: FrameTap? = nil, startInPictureInPicture: Bool = false, panorama: PanoramaSettings? = nil,
                window: SDLWindowOptions = SDLWindowOptions()) {
        self.title = title
        options = window
        gravity = window.gravity
        self.panorama = panorama.map(SDLPanoramaControl.init(settings:))
        self.frameTap = frameTap
        pictureInPicture = SDLPictureInPicture()
        switchRequested = startInPictureInPicture
    }

    private var isInPictureInPicture: Bool { pictureInPicture?.isShown == true }

    /// Whether SDL can open a window here (a display is reachable).
    public static func canOpenWindow() -> Bool {
        guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else { return false }
        SDL_QuitSubSystem(SDL_INIT_VIDEO)
        return true
    }

    /// Subtitles go over the 360° view, not onto the sphere.
    public var showsAView: Bool { panorama != nil }

    public func present(_ frame: VideoFrame, overlay: @escaping PictureOverlay) {
        guard panorama != nil else { return present(overlay(frame)) }
        presentView(of: frame, overlay: overlay)
    }

    public func present(_ frame: VideoFrame) {
        guard panorama == nil else { return presentView(of: frame, overlay: nil) }
        let sar = frame.sampleAspectRatio.isKnown ? (frame.sampleAspectRatio.doubleValue ?? 1) : 1
        aspect = options.aspectOverride ?? Double(frame.width) * sar / Double(frame.height)
        // mpv's window size: the picture's height, the width its display aspect gives.
        guard prepare(width: max(Int((Double(frame.height) * aspect).rounded()), 1), height: frame.height) else { return }
        // libswscale converts to RGB with the frame's matrix and range and accurate chroma
        // upsampling; the renderers' own YUV paths are coarser.
        guard let picture = try? converter.convert(frame, to: .bgra, quality: .accurate), let plane = picture.planes.first else { return }
        guard canvas?.upload(plane.baseAddress, bytesPerRow: plane.bytesPerRow, width: frame.width, height: frame.height) == true else { return }
        pictureInPicture?.present(plane.baseAddress, bytesPerRow: plane.bytesPerRow, width: frame.width, height: frame.height)
        lastPicture = picture
        pictureSize = (frame.width, frame.height)
        hasPicture = true
        if !isInPictureInPicture { draw() }
        performRequestedSwitch()
    }

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
            case SDL_WINDOWEVENT: redraw = true
            default: break
            }
        }
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

    /// A 360° view: a 16:9 window at most 1280 wide, whatever the source's size.
    private func presentView(of frame: VideoFrame, overlay: PictureOverlay?) {
        let width = min(frame.width, 1280)
        guard prepare(width: width, height: width * 9 / 16) else { return }
        lastFrame = frame
        lastViewOverlay = overlay
        drawPanorama()
    }

    /// A 360° view taps the view it draws.
    public var feedsFrameTap: Bool { panorama != nil }

    /// Draws the 360° view of the frame on screen at the window's size, and hands it to
    /// the frame tap and picture-in-picture.
    private func drawPanorama() {
        guard let panorama, let frame = lastFrame, let size = canvas?.outputSize else { return }
        let width = Int(size.width), height = Int(size.height - barHeight)
        guard let rendered = panorama.render(frame, width: width, height: height, interactive: true) else { return }
        var view = rendered.videoFrame(pts: frame.pts, duration: frame.duration, timeBase: frame.timeBase, isKeyframe: frame.isKeyframe)
        if let overlay = lastViewOverlay {
            let drawn = overlay(view)
            if drawn.pixelFormat != view.pixelFormat, let converted = try? converter.convert(drawn, to: .bgra, quality: .accurate) { view = converted }
        }
        guard let plane = view.planes.first,
              canvas?.upload(plane.baseAddress, bytesPerRow: plane.bytesPerRow, width: width, height: height) == true
        else { return }
        pictureInPicture?.present(plane.baseAddress, bytesPerRow: plane.bytesPerRow, width: width, height: height)
        aspect = Double(width) / Double(height)
        pictureSize = (width, height)
        hasPicture = true
        frameTap?.deliver(view)
        if !isInPictureInPicture { draw() }
        performRequestedSwitch()
    }

    private func performRequestedSwitch() {
        guard switchRequested, pictureInPicture?.exists == true else { return }
        switchRequested = false
        togglePictureInPicture()
    }

    /// Shows the small window and hides this one, or the other way round. Both windows
    /// exist from the first frame on, so a switch is a show and a hide.
    private func togglePictureInPicture() {
        guard let pictureInPicture, pictureInPicture.exists else { return }
        if pictureInPicture.isShown {
            pictureInPicture.hide()
            SDL_ShowWindow(window)
            SDL_RaiseWindow(window)
            draw()
        } else {
            pictureInPicture.show()
            if panorama != nil {
                drawPanorama()
            } else if let lastPicture, let plane = lastPicture.planes.first {
                pictureInPicture.present(plane.baseAddress, bytesPerRow: plane.bytesPerRow, width: lastPicture.width, height: lastPicture.height)
            }
            SDL_HideWindow(window)
        }
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
        case Int(SDLK_SLASH.rawValue) where shifted: return .character("?")
        case Int(SDLK_COMMA.rawValue) where shifted: return .character("<")
        case Int(SDLK_PERIOD.rawValue) where shifted: return .character(">")
        case Int(SDLK_3.rawValue) where shifted: return .character("#")
        case 0x20..<0x7F: return .character(Character(UnicodeScalar(UInt8(key.sym))))
        default: return nil
        }
    }

    private func destroyHelp() {
        for index in helpLabels?.indices ?? [].indices {
            helpLabels?[index].keys.destroy()
            helpLabels?[index].action.destroy()
        }
        helpLabels = nil
    }

    /// Destroys the window and its renderer; on the thread that made them.
    public func close() {
        pictureInPicture?.close()
        destroyHelp()
        messageLabel.destroy()
        chapterLabel.destroy()
        canvas?.destroy()
        canvas = nil
        SDL_QuitSubSystem(SDL_INIT_VIDEO)
    }

    /// Opens the window (and the hidden picture-in-picture one) at the first frame.
    private func prepare(width: Int, height: Int) -> Bool {
        guard canvas == nil else { return true }
        guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else { return false }
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
        // Keys are commands here, not text: no input method in between.
        SDL_StopTextInput()
        var bounds = SDL_Rect()
        let screen = SDL_GetDisplayUsableBounds(0, &bounds) == 0 ? (width: Int(bounds.w), height: Int(bounds.h)) : (width: width, height: height)
        let size: (width: Int, height: Int) = options.geometry?.size(natural: (width, height), screen: screen) ?? (width, height)
        let undefined = Int32(reel_sdl_windowpos_undefined())
        let origin = options.geometry?.origin(size: (size.width, size.height + Int(barHeight)), screen: screen)
        var flags = SDL_WINDOW_RESIZABLE.rawValue
        if options.onTop { flags |= SDL_WINDOW_ALWAYS_ON_TOP.rawValue }
        if options.fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        fullscreen = options.fullscreen
        canvas = SDLCanvas(title: title, x: origin.map { Int32(bounds.x) + Int32($0.x) } ?? undefined, y: origin.map { Int32(bounds.y) + Int32($0.y) } ?? undefined,
                           width: Int32(size.width), height: Int32(size.height) + barHeight, flags: flags, shown: true)
        pictureInPicture?.create(videoWidth: width, videoHeight: height)
        return canvas != nil
    }

    private func draw() {
        guard let canvas else { return }
        lastDraw = monotonicSeconds()
        let size = canvas.outputSize
        if hasPicture {
            let placed = (panorama == nil ? gravity : .fit).placement(pictureWidth: pictureSize.width, pictureHeight: pictureSize.height, aspect: aspect,
                                                                    width: Int(size.width), height: Int(size.height - barHeight))
            canvas.drawPicture(into: placed.destination, from: placed.source)
        } else {
            canvas.drawPicture(into: PixelRect(x: 0, y: 0, width: 0, height: 0))
        }
        drawBar(width: size.width, height: size.height)
        drawOverlays(width: Int(size.width), height: Int(size.height - barHeight))
        SDL_RenderPresent(canvas.renderer)
    }

    /// The passing message at the top left, and the list of keys when `?` asked for it.
    private func drawOverlays(width: Int, height: Int) {
        guard let renderer else { return }
        if helpLabels != nil {
            let lines = WindowKeys.bindings
            let lineHeight = max(min((height - 20) / lines.count, 24), 8)
            let boxWidth = min(width - 20, lineHeight * 18), keysWidth = lineHeight * 5
            shade(SDL_Rect(x: 10, y: 10, w: Int32(boxWidth), h: Int32(lineHeight * lines.count + 10)))
            for (index, line) in lines.enumerated() {
                let top = 15 + index * lineHeight
                helpLabels?[index].keys.draw(line.label, in: PixelRect(x: 20, y: top, width: keysWidth - 8, height: lineHeight),
                                             renderer: renderer, rasterizer: rasterizer, leftAligned: true)
                helpLabels?[index].action.draw(line.help, in: PixelRect(x: 20 + keysWidth, y: top, width: boxWidth - keysWidth - 20, height: lineHeight),
                                               renderer: renderer, rasterizer: rasterizer, leftAligned: true)
            }
        }
        // The message last: over the list too.
        if let message = lastStatus?.message {
            let lineHeight = max(min(height / 16, 28), 12)
            shade(SDL_Rect(x: 6, y: 6, w: Int32(width - 12), h: Int32(lineHeight + 6)))
            messageLabel.draw(message, in: PixelRect(x: 12, y: 9, width: width - 24, height: lineHeight),
                              renderer: renderer, rasterizer: rasterizer, leftAligned: true)
        }
    }

    /// Darkens `rect` so that text over the picture reads.
    private func shade(_ rect: SDL_Rect) {
        var rect = rect
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 200)
        SDL_RenderFillRect(renderer, &rect)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
    }

    private func drawBar(width: Int32, height: Int32) {
        guard let renderer, let status = lastStatus else { return }
        let top = height - barHeight
        fill(SDL_Rect(x: 0, y: top, w: width, h: barHeight), 24, 24, 24)
        let fraction = status.duration.map { $0 > 0 ? min(max(status.position / $0, 0), 1) : 0 } ?? 0
        fill(SDL_Rect(x: 0, y: top, w: width, h: 4), 70, 70, 70)
        fill(SDL_Rect(x: 0, y: top, w: Int32(Double(width) * fraction), h: 4), 230, 60, 50)
        // State: two bars when paused, a block when playing.
        if status.state == .paused {
            fill(SDL_Rect(x: 8, y: top + 9, w: 4, h: 14), 230, 230, 230)
            fill(SDL_Rect(x: 15, y: top + 9, w: 4, h: 14), 230, 230, 230)
        } else {
            for step in 0..<7 { fill(SDL_Rect(x: 8 + Int32(step) * 2, y: top + 9 + Int32(step), w: 2, h: 14 - Int32(step) * 2), 230, 230, 230) }
        }
        var text = OSDFont.clock(status.position) + " / " + (status.duration.map(OSDFont.clock) ?? "-:--")
        if abs(status.rate - 1) > 0.01 { text += "  " + String(format: "%.1fx", status.rate) }
        let scale: Int32 = 3
        for cell in OSDFont.cells(text) {
            fill(SDL_Rect(x: 30 + Int32(cell.x) * scale, y: top + 8 + Int32(cell.y) * scale, w: scale, h: scale), 230, 230, 230)
        }
        if let chapter = status.chapterTitle {
            let left = 30 + Int(scale) * (OSDFont.width + 1) * text.count + 12
            chapterLabel.draw(chapter, in: PixelRect(x: left, y: Int(top) + 5, width: Int(width) - 80 - left, height: 20),
                              renderer: renderer, rasterizer: rasterizer)
        }
        // Volume at the right: a bar, grey when muted.
        let level = status.muted ? 0 : status.volume
        fill(SDL_Rect(x: width - 70, y: top + 12, w: 60, h: 8), 70, 70, 70)
        fill(SDL_Rect(x: width - 70, y: top + 12, w: Int32(60 * level), h: 8), status.muted ? 120 : 90, status.muted ? 120 : 200, status.muted ? 120 : 90)
        _ = renderer
    }

    private func fill(_ rect: SDL_Rect, _ r: UInt8, _ g: UInt8, _ b: UInt8) {
        var rect = rect
        SDL_SetRenderDrawColor(renderer, r, g, b, 255)
        SDL_RenderFillRect(renderer, &rect)
    }
}
