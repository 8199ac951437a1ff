import Foundation

/// Files the tests make once and keep (fixtures, encoded streams, reference pictures).
enum CachedFile {
    /// `path`, made by `make` if it is missing (see ``replace(_:make:)``).
    @discardableResult
    static func at(_ path: String, make: (_ partial: String) throws -> Void) throws -> String {
        if !FileManager.default.fileExists(atPath: path) { try replace(path, make: make) }
        return path
    }

    /// Writes `path` through `make`, which writes to the path it is given: a name of its own
    /// beside `path`, with the same extension for the tools that read the format from it,
    /// renamed into place once complete. The suite's test processes may make the same file
    /// at the same moment, and none may read another's half-written one.
    static func replace(_ path: String, make: (_ partial: String) throws -> Void) throws {
        let pathExtension = (path as NSString).pathExtension
        let partial = path + ".\(UUID().uuidString)" + (pathExtension.isEmpty ? "" : "." + pathExtension)
        do {
            try make(partial)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
        guard rename(partial, path) == 0 else { throw TestSetupError("cannot write \(path)") }
    }
}
