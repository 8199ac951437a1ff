import Foundation
import Reel
import ReelSDL

/// The window and sound card outputs, where there is a display.
enum WindowOutputs {
    static func make(title: String, frameTap: FrameTap, pictureInPicture: Bool, panorama: PanoramaSettings?, window: SDLWindowOptions = SDLWindowOptions())
        -> (video: @Sendable () -> (any VideoOutput)?, audio: @Sendable () -> (any AudioOutput)?)? {
        guard displayIsReachable() else { return nil }
        return (video: { SDLVideoOutput(title: title, frameTap: frameTap, startInPictureInPicture: pictureInPicture, panorama: panorama, window: window) },
                audio: { soundDevice() })
    }

    /// Whether a window can be opened: a display is named and SDL reaches it.
    static func displayIsReachable() -> Bool {
        let environment = ProcessInfo.processInfo.environment
        return (environment["DISPLAY"]?.isEmpty == false || environment["WAYLAND_DISPLAY"]?.isEmpty == false) && SDLVideoOutput.canOpenWindow()
    }

    /// The sound card, or a virtual clock (said once on stderr) where there is none.
    static func soundDevice() -> any AudioOutput {
        if hasSoundDevice(), let device = SDLAudioOutput() { return device }
        FileHandle.standardError.write(Data("reel: no audio device; audio plays silently on a virtual clock\n".utf8))
        return HeadlessAudioOutput()
    }
}

/// A sound card or a sound server: without either, SDL's probing only prints ALSA's complaints.
private func hasSoundDevice() -> Bool {
    let environment = ProcessInfo.processInfo.environment
    let runtime = environment["XDG_RUNTIME_DIR"] ?? "/run/user/\(getuid())"
    let servers = ["\(runtime)/pulse/native", "\(runtime)/pipewire-0"]
    if environment["PULSE_SERVER"] != nil || servers.contains(where: FileManager.default.fileExists(atPath:)) { return true }
    let cards = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd")) ?? []
    return cards.contains { $0.hasPrefix("pcm") }
}
