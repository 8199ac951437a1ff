import CSDL2
import ReelCore

// The switch between the window and its always-on-top small copy.
extension SDLVideoOutput {
    func performRequestedSwitch() {
        guard switchRequested, pictureInPicture?.exists == true else { return }
        switchRequested = false
        togglePictureInPicture()
    }

    /// Shows the small window and hides this one, or the other way round. Both windows
    /// exist from the first frame on, so a switch is a show and a hide.
    func togglePictureInPicture() {
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
}
