import ReelCore

/// How the main window opens and shapes its picture (mpv's `--geometry`, `--fs`,
/// `--ontop`, `--video-aspect-override`, and SGPlayer's video gravity).
public struct SDLWindowOptions: Sendable {
    /// How the picture fills the window; `g` cycles fit, fill, stretch.
    public var gravity: VideoGravity = .fit
    /// The picture's display aspect ratio (width over height), instead of the one its
    /// size and sample aspect ratio give.
    public var aspectOverride: Double?
    /// The picture area's size and the window's position; the picture's display size by default.
    public var geometry: WindowGeometry?
    /// Open fullscreen (`f` leaves it).
    public var fullscreen = false
    /// Keep the window above the others.
    public var onTop = false

    /// A window as mpv opens one: the picture's display size, letterboxed.
    public init() {}
}
