import Foundation

/// Reads the cameras of a wall from a file (`reel wall --wall-file cams.json`):
///
/// - JSON: an array of cameras, or an object whose `cameras` is one. A camera is an object
///   with `main` (or `url`), and optionally `name`, `sub`, `username` (or `user`) and
///   `password`; or just a URL string.
/// - M3U (or a plain list of lines): each line a main stream, named by the `#EXTINF` line
///   before it when there is one.
///
/// Cameras without a name are named after their stream's host, or numbered.
public enum WallFile {
    /// A wall file is a short text; a bigger one is not a wall file.
    public static let maximumBytes = 1 << 20

    /// The cameras of the file at `path`.
    public static func cameras(atPath path: String) throws(WallFileError) -> [WallCamera] {
        guard let data = CappedFileRead.bytes(atPath: path, limit: maximumBytes) else { throw .unreadable(path) }
        return try cameras(of: data, path: path)
    }

    /// The cameras of `data`, the bytes of the file at `path`.
    public static func cameras(of data: Data, path: String) throws(WallFileError) -> [WallCamera] {
        guard data.count <= maximumBytes else { throw .tooLarge(path, limit: maximumBytes) }
        guard !data.contains(0), let text = String(data: data, encoding: .utf8) else { throw .notText(path) }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let found = trimmed.hasPrefix("[") || trimmed.hasPrefix("{") ? try camerasInJSON(data, path: path) : camerasInList(text)
        guard !found.isEmpty else { throw .empty(path) }
        guard found.count <= WallLayout.largestSide * WallLayout.largestSide else {
            throw .tooManyCameras(path, limit: WallLayout.largestSide * WallLayout.largestSide)
        }
        return named(found)
    }

    /// Cameras from streams given on the command line, named after their hosts.
    public static func cameras(urls: [String]) -> [WallCamera] {
        named(urls.map { WallCamera(name: "", main: $0) })
    }

    private static func camerasInJSON(_ data: Data, path: String) throws(WallFileError) -> [WallCamera] {
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .invalid(path, reason: "not JSON")
        }
        let list: [Any]
        if let array = value as? [Any] {
            list = array
        } else if let object = value as? [String: Any], let array = object["cameras"] as? [Any] {
            list = array
        } else {
            throw .invalid(path, reason: "neither a list of cameras nor an object with \"cameras\"")
        }
        var cameras: [WallCamera] = []
        for (index, entry) in list.enumerated() {
            if let url = entry as? String, !url.isEmpty {
                cameras.append(WallCamera(name: "", main: url))
                continue
            }
            guard let object = entry as? [String: Any] else { throw .invalid(path, reason: "camera \(index + 1) is not an object or a URL") }
            func text(_ keys: String...) throws(WallFileError) -> String? {
                for key in keys where object[key] != nil {
                    guard let value = object[key] as? String else { throw .invalid(path, reason: "camera \(index + 1): \"\(key)\" is not text") }
                    return value
                }
                return nil
            }
            guard let main = try text("main", "url"), !main.isEmpty else { throw .invalid(path, reason: "camera \(index + 1) has no \"main\" URL") }
            let sub = try text("sub")
            cameras.append(WallCamera(name: try text("name") ?? "", main: main, sub: sub?.isEmpty == true ? nil : sub,
                                      username: try text("username", "user"), password: try text("password")))
        }
        return cameras
    }

    private static func camerasInList(_ text: String) -> [WallCamera] {
        var cameras: [WallCamera] = []
        var pendingName: String?
        for line in text.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.isEmpty {
            if line.uppercased().hasPrefix("#EXTINF:") {
                // `#EXTINF:-1 tvg-id="…",Front door`: the name follows the first comma outside quotes.
                pendingName = titleOfExtinf(line)
            } else if !line.hasPrefix("#") {
                cameras.append(WallCamera(name: pendingName ?? "", main: line))
                pendingName = nil
            }
        }
        return cameras
    }

    private static func titleOfExtinf(_ line: String) -> String? {
        var quoted = false
        for index in line.indices {
            if line[index] == "\"" { quoted.toggle() }
            if line[index] == "," && !quoted {
                let title = line[line.index(after: index)...].trimmingCharacters(in: .whitespaces)
                return title.isEmpty ? nil : title
            }
        }
        return nil
    }

    /// Unnamed cameras take their stream's host, or "Camera N"; a name met before gets
    /// " (2)", " (3)"… (whichever is not taken).
    private static func named(_ cameras: [WallCamera]) -> [WallCamera] {
        var used = Set<String>()
        return cameras.enumerated().map { index, camera in
            var camera = camera
            if camera.name.isEmpty {
                camera.name = URLComponents(string: camera.main)?.host.flatMap { $0.isEmpty ? nil : $0 } ?? "Camera \(index + 1)"
            }
            var candidate = camera.name, number = 1
            while used.contains(candidate) {
                number += 1
                candidate = "\(camera.name) (\(number))"
            }
            used.insert(candidate)
            camera.name = candidate
            return camera
        }
    }
}

/// Why a wall file could not be read.
public enum WallFileError: Error, Equatable, CustomStringConvertible {
    /// The file cannot be opened or read.
    case unreadable(String)
    /// The file is larger than ``WallFile/maximumBytes``.
    case tooLarge(String, limit: Int)
    /// The file holds a NUL byte or is not UTF-8.
    case notText(String)
    /// JSON that does not describe cameras, and why.
    case invalid(String, reason: String)
    /// The file names no camera.
    case empty(String)
    /// More cameras than the largest grid holds.
    case tooManyCameras(String, limit: Int)

    /// One line for the user.
    public var description: String {
        switch self {
        case .unreadable(let path): "cannot read '\(path)'"
        case .tooLarge(let path, let limit): "'\(path)' is larger than a wall file can be (\(limit) bytes)"
        case .notText(let path): "'\(path)' is not text"
        case .invalid(let path, let reason): "'\(path)': \(reason)"
        case .empty(let path): "'\(path)' names no camera"
        case .tooManyCameras(let path, let limit): "'\(path)' names more cameras than a wall shows (\(limit))"
        }
    }
}
