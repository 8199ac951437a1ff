import ReelCore
import ReelFFmpeg

/// A VAP file's audio decoded whole (animations last seconds), in the device's format and
/// at the tempo that keeps it with the frames when the caller changes their rate.
final class VAPAudioTrack: @unchecked Sendable {
    /// Longest audio kept: beyond it the animation plays on silently.
    static let maxSeconds = 300.0

    let samples: [Float]
    let format: AudioDeviceFormat

    /// Decodes the first audio stream of `path`; `tempo` > 1 plays faster at the same pitch.
    init?(path: String, format: AudioDeviceFormat, tempo: Double) throws {
        let demuxer = try Demuxer(url: path)
        guard let index = demuxer.bestStream(of: .audio) else { return nil }
        let decoder = try Decoder(demuxer: demuxer, streamIndex: index, options: DecoderOptions(threadCount: 1))
        let converter = AudioConverter(device: format, tempo: tempo)
        let limit = Int(Self.maxSeconds) * format.sampleRate * format.channels
        var samples = [Float]()
        func take(_ decoded: DecodedFrame) throws {
            guard case .audio(let frame) = decoded, samples.count < limit else { return }
            try converter.push(frame)
            converter.pull { bytes, _ in samples.append(contentsOf: bytes.bindMemory(to: Float.self)) }
        }
        while samples.count < limit, let packet = try demuxer.readPacket() {
            if packet.streamIndex == index { try decoder.decode(packet, take) }
        }
        try decoder.drain(take)
        try converter.push(nil)
        converter.pull { bytes, _ in samples.append(contentsOf: bytes.bindMemory(to: Float.self)) }
        self.samples = Array(samples.prefix(limit))
        self.format = format
    }
}

/// Feeds a ``VAPAudioTrack`` to an audio device from a position, and tells where the
/// device is: the audio clock the frames follow.
final class VAPAudioClock: @unchecked Sendable {
    private let track: VAPAudioTrack
    private let lock = ConditionLock()
    /// Next sample frame to hand the device.
    private var position = 0
    /// Media time of the last buffer's first sample and the device time it is heard.
    private var anchor: (media: Double, device: Double)?
    private var playing = false

    init(track: VAPAudioTrack) { self.track = track }

    /// Plays from `seconds` on.
    func start(at seconds: Double) {
        lock.withLock {
            position = min(max(Int(seconds * Double(track.format.sampleRate)), 0), track.samples.count / track.format.channels)
            anchor = nil
            playing = true
        }
    }

    func stop() { lock.withLock { playing = false; anchor = nil } }

    /// Seconds of audio heard by the device at `now`, `nil` until the device has started.
    func time(at now: Double) -> Double? {
        lock.withLock { anchor.map { $0.media + (now - $0.device) } }
    }

    /// The device's pull (on its own thread).
    func render(into buffer: UnsafeMutableRawBufferPointer, heardAt: Double) {
        let output = buffer.bindMemory(to: Float.self)
        lock.withLock {
            let channels = track.format.channels
            guard playing else {
                output.update(repeating: 0)
                return
            }
            anchor = (Double(position) / Double(track.format.sampleRate), heardAt)
            let available = max(track.samples.count / channels - position, 0)
            let frames = min(output.count / channels, available)
            track.samples.withUnsafeBufferPointer { source in
                for index in 0..<frames * channels { output[index] = source[position * channels + index] }
            }
            for index in frames * channels..<output.count { output[index] = 0 }
            // Past the end the clock keeps running on silence.
            position += output.count / channels
        }
    }
}
