import ReelCore

/// Everything a ``HeadlessAudioOutput`` plays, written to a WAV file (32-bit float, the
/// device's rate and channels), as mpv's `--ao=pcm`: what a listener would have heard,
/// rate changes and volume included, pauses left out. One file may follow several
/// outputs in turn (a playlist's items).
public final class SoundFile: @unchecked Sendable {
    /// The device format the file is written in.
    public let format: AudioDeviceFormat
    private let lock = ConditionLock()
    private let writer: WAVWriter

    /// Creates (or replaces) `path`.
    public init(path: String, format: AudioDeviceFormat = AudioDeviceFormat(sampleRate: 48000, channels: 2)) throws {
        self.format = format
        writer = try WAVWriter(path: path, sampleRate: format.sampleRate, channels: format.channels)
    }

    func append(_ samples: UnsafeBufferPointer<Float>) {
        lock.withLock { writer.append(samples) }
    }

    /// Completes the file; throws the first write error (a full disk), after which nothing
    /// more was written.
    public func finish() throws {
        try lock.withLock {
            writer.finish()
            if let failure = writer.failure { throw failure }
        }
    }
}
