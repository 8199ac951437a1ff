import CSDL2
import Foundation
import ReelCore

/// The default recording device through SDL2, as talk-back audio: SDL converts what the
/// device records to 8 kHz mono 16-bit; each read waits until its 20 ms have been
/// recorded, so the microphone paces the talk. (SDL's `disk` driver reads a file instead,
/// `SDL_DISKAUDIOFILEIN`, for a machine without one.)
public final class SDLMicrophone: TalkSource, @unchecked Sendable {
    public let isLive = true
    private var device: SDL_AudioDeviceID = 0
    /// Kept here (SDL holds it unretained until the device closes), so a read waiting at the close ends well.
    private let capture = CaptureBox()

    /// Opens and starts the default recording device; throws when there is none.
    public init() throws {
        guard SDL_InitSubSystem(SDL_INIT_AUDIO) == 0 else {
            throw SDLMicrophoneError(reason: "SDL's audio does not start: \(String(cString: SDL_GetError()))")
        }
        var wanted = SDL_AudioSpec()
        wanted.freq = Int32(TalkBackPacketizer.sampleRate)
        wanted.format = reel_sdl_audio_s16()
        wanted.channels = 1
        wanted.samples = UInt16(TalkBackPacketizer.samplesPerPacket)
        wanted.callback = sdlCaptureCallback
        wanted.userdata = Unmanaged.passUnretained(capture).toOpaque()
        var obtained = SDL_AudioSpec()
        // No changes allowed: SDL converts to the format asked for.
        device = SDL_OpenAudioDevice(nil, 1, &wanted, &obtained, 0)
        guard device != 0 else {
            let reason = String(cString: SDL_GetError())
            SDL_QuitSubSystem(SDL_INIT_AUDIO)
            throw SDLMicrophoneError(reason: "no microphone: \(reason)")
        }
        SDL_PauseAudioDevice(device, 0)
    }

    public func read(count: Int) -> [Int16]? { capture.read(count: count) }

    /// Stops recording; a read waiting returns what is left, then nil.
    public func close() {
        guard device != 0 else { return }
        SDL_CloseAudioDevice(device)
        device = 0
        capture.end()
        SDL_QuitSubSystem(SDL_INIT_AUDIO)
    }

    deinit { close() }
}

/// Why the microphone did not open.
public struct SDLMicrophoneError: Error, CustomStringConvertible {
    /// SDL's words.
    public let reason: String
    public var description: String { reason }
}

/// What the device recorded and nobody read yet: at most 2 s, the oldest let go first.
final class CaptureBox: @unchecked Sendable {
    private let lock = ConditionLock()
    private var samples: [Int16] = []
    private var ended = false
    private static let limit = 2 * TalkBackPacketizer.sampleRate

    func append(_ recorded: UnsafeBufferPointer<Int16>) {
        lock.withLock {
            samples.append(contentsOf: recorded)
            if samples.count > Self.limit { samples.removeFirst(samples.count - Self.limit) }
            lock.broadcast()
        }
    }

    func read(count: Int) -> [Int16]? {
        lock.withLock {
            while samples.count < count, !ended { lock.wait() }
            guard !samples.isEmpty else { return nil }
            let taken = Array(samples.prefix(count))
            samples.removeFirst(taken.count)
            return taken
        }
    }

    func end() {
        lock.withLock {
            ended = true
            lock.broadcast()
        }
    }
}

/// Called by SDL on its audio thread, so a plain global function.
private func sdlCaptureCallback(_ userdata: UnsafeMutableRawPointer?, _ stream: UnsafeMutablePointer<UInt8>?, _ length: Int32) {
    guard let userdata, let stream else { return }
    let box = Unmanaged<CaptureBox>.fromOpaque(userdata).takeUnretainedValue()
    stream.withMemoryRebound(to: Int16.self, capacity: Int(length) / 2) { box.append(UnsafeBufferPointer(start: $0, count: Int(length) / 2)) }
}
