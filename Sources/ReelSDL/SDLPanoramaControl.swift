import CSDL2
import ReelCore
import ReelFFmpeg

/// The 360° view of the window: the settings the user changes with the mouse and keys
/// (drag to look, arrows or WASD to pan, wheel or +/- to zoom, r to reset, v for VR), and
/// the renderer that turns frames into the view.
final class SDLPanoramaControl {
    private(set) var settings: PanoramaSettings
    private let initial: PanoramaSettings
    private let renderer = PanoramaRenderer(threads: 2)
    private let converter = SwscaleConverter()
    private var dragging = false
    /// The view moved since the last exact picture: draw again once the exact maps are in.
    private(set) var awaitingExactMaps = false

    static let fieldOfViewRange: ClosedRange<Float> = 30...120
    static let panStep: Float = 5

    init(settings: PanoramaSettings) {
        self.settings = settings
        initial = settings
    }

    /// The view for a `width`×`height` picture.
    func render(_ frame: VideoFrame, width: Int, height: Int, interactive: Bool) -> PixelBuffer? {
        guard width > 1, height > 1 else { return nil }
        var settings = self.settings
        settings.view = settings.view.squarePixels(width: settings.isVR ? width / 2 : width, height: height)
        do {
            let picture = try renderer.render(converter.i420Picture(of: frame), settings: settings, width: width, height: height,
                                              interactive: interactive)
            awaitingExactMaps = renderer.lastRenderWasApproximate
            return picture
        } catch {
            return nil
        }
    }

    /// Whether the maps the last interactive picture needed are built now.
    var exactMapsReady: Bool { awaitingExactMaps && renderer.isSettled }

    /// Handles an event that changes the view; true when it did (the picture must be
    /// drawn again). `pictureHeight` excludes the bar under the picture.
    func handle(_ event: SDL_Event, pictureWidth: Int32, pictureHeight: Int32) -> Bool {
        switch SDL_EventType(event.type) {
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT) && event.button.y < pictureHeight:
            dragging = true
            return false
        case SDL_MOUSEBUTTONUP where event.button.button == UInt8(SDL_BUTTON_LEFT):
            dragging = false
            return false
        case SDL_MOUSEMOTION where dragging && (event.motion.xrel != 0 || event.motion.yrel != 0):
            // Grab the world: it follows the pointer, so the view turns the other way.
            let eyeWidth = Float(settings.isVR ? pictureWidth / 2 : pictureWidth)
            let view = settings.view.squarePixels(width: Int(eyeWidth), height: Int(pictureHeight))
            turn(yaw: -Float(event.motion.xrel) * view.horizontalFOV / eyeWidth,
                 pitch: Float(event.motion.yrel) * view.verticalFOV / Float(pictureHeight))
            return true
        case SDL_MOUSEWHEEL where event.wheel.y != 0:
            zoom(by: event.wheel.y > 0 ? -Self.panStep : Self.panStep)
            return true
        case SDL_KEYDOWN:
            switch Int(event.key.keysym.sym) {
            case Int(SDLK_LEFT.rawValue), Int(SDLK_a.rawValue): turn(yaw: -Self.panStep, pitch: 0)
            case Int(SDLK_RIGHT.rawValue), Int(SDLK_d.rawValue): turn(yaw: Self.panStep, pitch: 0)
            case Int(SDLK_UP.rawValue), Int(SDLK_w.rawValue): turn(yaw: 0, pitch: Self.panStep)
            case Int(SDLK_DOWN.rawValue), Int(SDLK_s.rawValue): turn(yaw: 0, pitch: -Self.panStep)
            case Int(SDLK_PLUS.rawValue), Int(SDLK_EQUALS.rawValue), Int(SDLK_KP_PLUS.rawValue): zoom(by: -Self.panStep)
            case Int(SDLK_MINUS.rawValue), Int(SDLK_KP_MINUS.rawValue): zoom(by: Self.panStep)
            case Int(SDLK_r.rawValue): settings = initial
            case Int(SDLK_v.rawValue): settings.isVR.toggle()
            default: return false
            }
            return true
        default:
            return false
        }
    }

    private func turn(yaw: Float, pitch: Float) {
        var newYaw = settings.view.yaw + yaw
        newYaw -= (newYaw / 360).rounded() * 360
        settings.view.yaw = newYaw
        settings.view.pitch = min(max(settings.view.pitch + pitch, -90), 90)
    }

    private func zoom(by degrees: Float) {
        settings.view.horizontalFOV = min(max(settings.view.horizontalFOV + degrees, Self.fieldOfViewRange.lowerBound), Self.fieldOfViewRange.upperBound)
    }
}
