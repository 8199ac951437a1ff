import ReelCore
import ReelFFmpeg

/// A sound card that a wall's tile plays into, heard only while its tile is chosen: the
/// player keeps pulling (its audio clock runs on, so its pictures keep their time) and the
/// samples are silenced on the way out when the tile is not the one heard.
final class GatedAudioOutput: AudioOutput, @unchecked Sendable {
    private let device: any AudioOutput
    private let heard = LockedValue(false)

    init(device: any AudioOutput) {
        self.device = device
    }

    /// Whether its sound reaches the device.
    var isHeard: Bool {
        get { heard.withLock { $0 } }
        set { heard.withLock { $0 = newValue } }
    }

    var format: AudioDeviceFormat { device.format }

    func start(render: @escaping @Sendable (UnsafeMutableRawBufferPointer, Double) -> Void) throws {
        try device.start { [heard] buffer, heardAt in
            render(buffer, heardAt)
            if !heard.withLock({ $0 }) { buffer.initializeMemory(as: UInt8.self, repeating: 0) }
        }
    }

    func setPaused(_ paused: Bool) { device.setPaused(paused) }

    func close() { device.close() }
}
