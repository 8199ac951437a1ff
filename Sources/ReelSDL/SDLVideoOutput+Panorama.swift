import CSDL2
import ReelCore
import ReelFFmpeg

// A 360° view in the window: drawn at the window's size, redrawn as it moves, handed to
// the frame tap and the small window.
extension SDLVideoOutput {
    /// A 360° view: a 16:9 window at most 1280 wide, whatever the source's size.
    func presentView(of frame: VideoFrame, overlay: PictureOverlay?) {
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
    func drawPanorama() {
        guard let panorama, let frame = lastFrame, let size = canvas?.outputSize else { return }
        let width = Int(size.width), height = Int(size.height - barHeight)
        guard let rendered = panorama.render(frame, width: width, height: height, interactive: true) else { return }
        var view = rendered.videoFrame(pts: frame.pts, duration: frame.duration, timeBase: frame.timeBase, isKeyframe: frame.isKeyframe)
        if let overlay = lastViewOverlay {
            // Subtitles come back in RGB24, gifts in the view's own BGRA.
            let drawn = overlay(view)
            if drawn.pixelFormat == view.pixelFormat {
                view = drawn
            } else if let converted = try? converter.convert(drawn, to: .bgra, quality: .accurate) {
                view = converted
            }
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
}
