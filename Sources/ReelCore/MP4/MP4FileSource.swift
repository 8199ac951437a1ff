#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read with `pread`, a box at a time.
///
/// Not `Sendable`: one reader at a time: it owns a file descriptor and reads it in order.
public final class MP4FileSource: MP4ByteSource {
    private let descriptor: Int32
    /// The file's size in bytes.
    public let length: UInt64

    /// Opens `path` for reading.
    public init(path: String) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw MP4Error.unreadable("\(path): \(String(cString: strerror(errno)))") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw MP4Error.unreadable(path)
        }
        length = UInt64(max(status.st_size, 0))
    }

    deinit { close(descriptor) }

    public func read(at offset: UInt64, count: Int) throws -> [UInt8]? {
        guard count >= 0, offset <= length, UInt64(count) <= length - offset else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw MP4Error.unreadable(String(cString: strerror(errno))) }
            done += got
        }
        return bytes
    }
}

@available(*, unavailable, message: "one owner uses it, in order")
extension MP4FileSource: Sendable {}
