#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A file written under a hidden name beside its final one (`.NAME.partial-PID`) and
/// renamed into place once complete, so that a process killed while writing leaves nothing
/// half-written under the name the user asked for. The rename stays in one directory, so
/// it is atomic. Outputs that are not plain files (`-`, URLs, pipes, devices) are written
/// in place.
package struct PartialFile: Sendable {
    /// The name the user asked for.
    package let finalPath: String
    /// Where the bytes go until ``commit()``.
    package let writingPath: String

    package init(_ path: String) {
        finalPath = path
        if Self.writesInPlace(path) {
            writingPath = path
        } else {
            let url = URL(fileURLWithPath: path)
            writingPath = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())").path
        }
    }

    /// Moves the finished file to its final name, replacing what was there.
    package func commit() throws(OutputError) {
        guard writingPath != finalPath else { return }
        guard rename(writingPath, finalPath) == 0 else {
            throw OutputError(finalPath, "cannot move the finished file into place: \(String(cString: strerror(errno)))")
        }
    }

    /// After an error: removes a hidden file, and cuts one written in place back to its
    /// first `length` bytes (the part known to be whole), when given.
    package func abandon(keepingFirst length: Int64? = nil) {
        if writingPath != finalPath {
            unlink(writingPath)
        } else if let length {
            truncate(writingPath, off_t(length))
        }
    }

    /// A file written under its final name from the first byte: a recording, which must
    /// keep what it holds however it ends.
    package init(inPlace path: String) {
        finalPath = path
        writingPath = path
    }

    static func writesInPlace(_ path: String) -> Bool {
        if path == "-" || path.contains("://") || path.hasPrefix("pipe:") || path.hasPrefix("file:") { return true }
        var info = stat()
        // A FIFO, a device or anything else that is there and is not a regular file.
        return stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG
    }
}
