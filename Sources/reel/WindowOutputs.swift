import Foundation
import Reel

/// The window and sound card outputs, where there is a display.
enum WindowOutputs {
    static func make(title: String) -> (video: @Sendable () -> (any VideoOutput)?, audio: @Sendable () -> (any AudioOutput)?)? {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DISPLAY"]?.isEmpty == false || environment["WAYLAND_DISPLAY"]?.isEmpty == false else { return nil }
        return nil
    }
}
