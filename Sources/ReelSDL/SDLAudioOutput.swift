import CSDL2
import Foundation
import ReelCore

/// The sound card through SDL2: the device pulls samples from its own thread.
public final class SDLAudioOutput: AudioOutput, @unchecked Sendable {
    /// What the device opened with: float, at the rate and channels SDL granted.
    public let format: AudioDeviceFormat
    private var device: SDL_AudioDeviceID = 0
    private var renderBox: Unmanaged<RenderBox>?

    /// Opens the default device (paused); `nil` when there is none (no sound card or server).
    public init?(format: AudioDeviceFormat = AudioDeviceFormat(sampleRate: 48000, channels: 2)) {
        guard SDL_InitSubSystem(SDL_INIT_AUDIO) == 0 else { return nil }
        self.format = format
        let box = Unmanaged.passRetained(RenderBox(bytesPerSecond: Double(format.sampleRate * format.bytesPerFrame)))
        var wanted = SDL_AudioSpec()
        wanted.freq = Int32(format.sampleRate)
        wanted.format = reel_sdl_audio_f32()
        wanted.channels = UInt8(format.channels)
        wanted.samples = 1024
        wanted.callback = sdlAudioCallback
        wanted.userdata = box.toOpaque()
        var obtained = SDL_AudioSpec()
        device = SDL_OpenAudioDevice(nil, 0, &wanted, &obtained, 0)
        guard device != 0 else {
            box.release()
            SDL_QuitSubSystem(SDL_INIT_AUDIO)
            return nil
        }
        renderBox = box
    }

    public func start(render: @escaping @Sendable (UnsafeMutableRawBufferPointer, Double) -> Void) throws {
        renderBox?.takeUnretainedValue().setRender(render)
        SDL_PauseAudioDevice(device, 0)
    }

    /// Pauses or resumes the device; what it holds is kept.
    public func setPaused(_ paused: Bool) {
        if device != 0 { SDL_PauseAudioDevice(device, paused ? 1 : 0) }
    }

    /// Closes the device; the render callback is not called again.
    public func close() {
        if device != 0 { SDL_CloseAudioDevice(device) }
        device = 0
        renderBox?.release()
        renderBox = nil
        SDL_QuitSubSystem(SDL_INIT_AUDIO)
    }
}

final class RenderBox: @unchecked Sendable {
    private var render: (@Sendable (UnsafeMutableRawBufferPointer, Double) -> Void)?
    private var mutex = pthread_mutex_t()
    let bytesPerSecond: Double

    init(bytesPerSecond: Double) {
        self.bytesPerSecond = bytesPerSecond
        pthread_mutex_init(&mutex, nil)
    }

    func setRender(_ render: @escaping @Sendable (UnsafeMutableRawBufferPointer, Double) -> Void) {
        pthread_mutex_lock(&mutex)
        self.render = render
        pthread_mutex_unlock(&mutex)
    }

    func callAsFunction(_ buffer: UnsafeMutableRawBufferPointer, _ heardAt: Double) {
        pthread_mutex_lock(&mutex)
        let render = self.render
        pthread_mutex_unlock(&mutex)
        if let render { render(buffer, heardAt) } else { buffer.initializeMemory(as: UInt8.self, repeating: 0) }
    }
}

/// Called by SDL on its audio thread, so a plain global function.
private func sdlAudioCallback(_ userdata: UnsafeMutableRawPointer?, _ stream: UnsafeMutablePointer<UInt8>?, _ length: Int32) {
    guard let userdata, let stream else { return }
    let box = Unmanaged<RenderBox>.fromOpaque(userdata).takeUnretainedValue()
    // The buffer asked for now is heard after the one the device is playing.
    let heardAt = monotonicSeconds() + Double(length) / box.bytesPerSecond
    box(UnsafeMutableRawBufferPointer(start: stream, count: Int(length)), heardAt)
}
