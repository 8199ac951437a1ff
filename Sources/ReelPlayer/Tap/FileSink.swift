import Foundation

/// A file (or FIFO) written with plain `write(2)`: opening a FIFO waits for its reader,
/// and a reader that goes away is an error, not a signal that kills the process.
final class FileSink {
    private let descriptor: Int32
    let path: String

    init(path: String) throws {
        signal(SIGPIPE, SIG_IGN)
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw TapError(path: path, reason: String(cString: strerror(errno))) }
        self.path = path
    }

    deinit { close(descriptor) }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw TapError(path: path, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
    }

    func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }
}

/// A frame tap writer could not write.
public struct TapError: Error, CustomStringConvertible, Sendable {
    /// The file or directory written to.
    public var path: String
    /// Why it could not be written.
    public var reason: String
    public var description: String { "cannot write \(path): \(reason)" }
}
