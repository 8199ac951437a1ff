import Foundation

/// Reads a small text file (a playlist, a wall file) without trusting its size: at most one
/// byte more than `limit`, so that the reader can tell a file that is too large.
enum CappedFileRead {
    /// The file's first `limit + 1` bytes; nil when it cannot be opened or read.
    static func bytes(atPath path: String, limit: Int) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        do {
            return try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            return nil
        }
    }
}
