#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes interleaved 32-bit float samples to a WAV file (IEEE float, as FFmpeg's
/// `pcm_f32le` in WAV). The header's sizes are brought up to date every second of sound
/// and at ``finish()``, so a process killed while writing leaves a file that plays up to
/// about a second before its end.
package final class WAVWriter: @unchecked Sendable {
    package let path: String
    private let sampleRate: Int
    private let channels: Int
    private var descriptor: Int32
    private var dataBytes = 0
    private var bytesSinceHeader = 0
    /// The first error; nothing more is written after it.
    package private(set) var failure: OutputError?

    /// Creates (or replaces) `path` and writes its header.
    package init(path: String, sampleRate: Int, channels: Int) throws(OutputError) {
        self.path = path
        self.sampleRate = sampleRate
        self.channels = channels
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputError(path, String(cString: strerror(errno))) }
        let header = Self.header(sampleRate: sampleRate, channels: channels, dataBytes: 0)
        guard writeAll(header, at: nil) else { throw failure ?? OutputError(path, "cannot write") }
    }

    deinit { finish() }

    /// Appends interleaved samples.
    package func append(_ samples: UnsafeBufferPointer<Float>) {
        guard failure == nil, descriptor >= 0, !samples.isEmpty else { return }
        guard writeAll(UnsafeRawBufferPointer(samples), at: nil) else { return }
        dataBytes += samples.count * 4
        bytesSinceHeader += samples.count * 4
        if bytesSinceHeader >= sampleRate * channels * 4 {
            bytesSinceHeader = 0
            updateHeader()
        }
    }

    /// Writes the final sizes and closes the file; later calls do nothing.
    package func finish() {
        guard descriptor >= 0 else { return }
        updateHeader()
        close(descriptor)
        descriptor = -1
    }

    private func updateHeader() {
        guard failure == nil else { return }
        _ = writeAll(Self.header(sampleRate: sampleRate, channels: channels, dataBytes: dataBytes), at: 0)
    }

    private func writeAll(_ bytes: some Collection<UInt8>, at offset: Int?) -> Bool {
        let array = Array(bytes)
        return array.withUnsafeBytes { writeAll($0, at: offset) }
    }

    private func writeAll(_ buffer: UnsafeRawBufferPointer, at offset: Int?) -> Bool {
        var done = 0
        while done < buffer.count {
            let rest = UnsafeRawBufferPointer(rebasing: buffer[done...])
            let written = offset.map { pwrite(descriptor, rest.baseAddress, rest.count, off_t($0 + done)) }
                ?? write(descriptor, rest.baseAddress, rest.count)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                failure = OutputError(path, written < 0 ? String(cString: strerror(errno)) : "nothing written")
                return false
            }
            done += written
        }
        return true
    }

    /// The 58-byte header of a float WAV holding `dataBytes` of samples: RIFF, a `fmt `
    /// chunk of format 3 (IEEE float) with its empty extension, a `fact` chunk (required
    /// for formats other than PCM), then the `data` chunk's header.
    package static func header(sampleRate: Int, channels: Int, dataBytes: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        func text(_ string: String) { bytes += Array(string.utf8) }
        func u32(_ value: Int) { withUnsafeBytes(of: UInt32(clamping: value).littleEndian) { bytes += $0 } }
        func u16(_ value: Int) { withUnsafeBytes(of: UInt16(clamping: value).littleEndian) { bytes += $0 } }
        text("RIFF"); u32(50 + dataBytes); text("WAVE")
        text("fmt "); u32(18)
        u16(3); u16(channels); u32(sampleRate); u32(sampleRate * channels * 4); u16(channels * 4); u16(32); u16(0)
        text("fact"); u32(4); u32(dataBytes / max(channels * 4, 1))
        text("data"); u32(dataBytes)
        return bytes
    }
}
