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
    let title: String
    var canvas: SDLCanvas?
    var window: OpaquePointer? { canvas?.window }
    var renderer: OpaquePointer? { canvas?.renderer }
    var aspect = 1.0
    var converter = PictureConverter()
    var fullscreen = false
    var lastStatus: PlaybackStatus?
    var lastDraw = 0.0
    var hasPicture = false
    /// Height of the bar at the bottom, pixels.
    let barHeight: Int32 = 28
    let pictureInPicture: SDLPictureInPicture?
    /// A switch to or from picture-in-picture waits for the next presented frame, so that
    /// its window round trips use the time until the following one instead of delaying it.
    var switchRequested: Bool
    let panorama: SDLPanoramaControl?
    let frameTap: FrameTap?
    let options: SDLWindowOptions
    var gravity: VideoGravity
    /// The size of the picture on screen, in pixels.
    var pictureSize = (width: 0, height: 0)
    /// The chapter's title in the bar, with the font it is drawn in (none when no font loads).
    var chapterLabel = SDLTextLabel()
    lazy var rasterizer = try? TextRasterizer()
    /// The frame on screen, kept to draw the 360° view again when it moves while paused.
    var lastFrame: VideoFrame?
    /// The picture on screen as uploaded (BGRA), kept for picture-in-picture to start with.
    var lastPicture: VideoFrame?
    /// What goes over the 360° view of the frame on screen (its subtitles).
    var lastViewOverlay: PictureOverlay?
    /// The passing message at the top left (a screenshot written, an A-B loop point).
    var messageLabel = SDLTextLabel()
    /// The list of keys `?` shows over the picture, a label per line.
    var helpLabels: [(keys: SDLTextLabel, action: SDLTextLabel)]?
    /// Whether the seek bar shows a thumbnail of the moment under the pointer.
    let showsThumbnails: Bool
    /// Where the pointer is along the bar, 0 to 1; nil off it.
    var hoverFraction: Double?
    /// Makes the thumbnails for the input playing (made at the first hover).
    var preview: ThumbnailPreview?
    var previewTexture: OpaquePointer?
    var previewTextureSize = (width: 0, height: 0)
    /// Which of the preview's thumbnails the texture holds.
    var previewTextureCount = -1

    /// A window, opened at the first frame.
    ///
    /// - Parameters:
    ///   - title: the window's title.
    ///   - frameTap: the player's tap, which a 360° view hands the views it draws.
    ///   - startInPictureInPicture: show the small window instead of this one from the start.
    ///   - panorama: show equirectangular frames as a 360° view with these settings.
    ///   - window: the window's size, position, gravity, aspect, fullscreen and stacking.
    ///   - thumbnails: show a thumbnail of the moment under the pointer over the seek bar.
    public init(title: String, frameTap: FrameTap? = nil, startInPictureInPicture: Bool = false, panorama: PanoramaSettings? = nil,
                window: SDLWindowOptions = SDLWindowOptions(), thumbnails: Bool = true) {
        self.title = title
        showsThumbnails = thumbnails && panorama == nil
        options = window
        gravity = window.gravity
        self.panorama = panorama.map(SDLPanoramaControl.init(settings:))
        self.frameTap = frameTap
        pictureInPicture = SDLPictureInPicture()
        switchRequested = startInPictureInPicture
    }

    var isInPictureInPicture: Bool { pictureInPicture?.isShown == true }

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

    /// Destroys the window and its renderer; on the thread that made them.
    public func close() {
        closePreview()
        pictureInPicture?.close()
        destroyHelp()
        messageLabel.destroy()
        chapterLabel.destroy()
        canvas?.destroy()
        canvas = nil
        SDL_QuitSubSystem(SDL_INIT_VIDEO)
    }

    /// Opens the window (and the hidden picture-in-picture one) at the first frame.
    func prepare(width: Int, height: Int) -> Bool {
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

    func draw() {
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
        drawPreview(width: size.width, barTop: size.height - barHeight)
        SDL_RenderPresent(canvas.renderer)
    }
}
