import ReelCore
import ReelFFmpeg

/// A video output with no screen of its own that shows a 360° source as a view: each frame
/// is rendered with `PanoramaSettings` (any projection, VR too) at a fixed size and handed
/// to the output it wraps and to the frame tap, so that headless snapshots and taps hold
/// what a window would show, not the sphere. The window does the same itself.
public final class PanoramaVideoOutput: VideoOutput, @unchecked Sendable {
    private let output: VideoOutput
    private let frameTap: FrameTap?
    private let settings: PanoramaSettings
    private let width: Int, height: Int
    private let renderer = PanoramaRenderer(threads: 2)
    private let converter = SwscaleConverter()

    /// - Parameters:
    ///   - output: what shows (or records) the views, such as a ``HeadlessVideoOutput``.
    ///   - settings: the view, projection, stereo layout and VR lens.
    ///   - width: the views' width in pixels (a VR view holds both eyes).
    ///   - height: their height.
    ///   - frameTap: the player's tap, handed the views.
    public init(wrapping output: VideoOutput, settings: PanoramaSettings, width: Int, height: Int, frameTap: FrameTap? = nil) throws {
        guard width > 1, height > 1, width <= PanoramaMap.maxDimension, height <= PanoramaMap.maxDimension else {
            throw PanoramaError.invalidSize(min(width, height) <= 1 ? min(width, height) : max(width, height))
        }
        self.output = output
        self.frameTap = frameTap
        var settings = settings
        settings.view = settings.view.squarePixels(width: settings.isVR ? width / 2 : width, height: height)
        self.settings = settings
        self.width = width
        self.height = height
    }

    private let failure = LockedValue<String?>(nil)

    /// Why frames could not be rendered (a source too small for its projection), if they could not.
    public var error: String? { failure.withLock { $0 } }

    public func present(_ frame: VideoFrame) {
        present(frame) { $0 }
    }

    /// Renders the view of `frame` and draws `overlay` (subtitles) over the view.
    public func present(_ frame: VideoFrame, overlay: @escaping PictureOverlay) {
        do {
            let source = try converter.i420Picture(of: frame)
            let view = settings.isVR
                ? try renderer.render(source, settings: settings, width: width, height: height)
                : try renderer.renderFlat(source, settings: settings, width: width, height: height)
            let shown = overlay(view.videoFrame(pts: frame.pts, duration: frame.duration, timeBase: frame.timeBase, isKeyframe: frame.isKeyframe))
            frameTap?.deliver(shown)
            output.present(shown)
        } catch {
            failure.withLock { $0 = "\(error)" }
        }
    }

    public func idle(status: PlaybackStatus) -> [UserCommand] { output.idle(status: status) }

    public func close() { output.close() }

    /// The views go to the tap from here.
    public var feedsFrameTap: Bool { true }

    /// Subtitles go over the view, not onto the sphere.
    public var showsAView: Bool { true }
}
