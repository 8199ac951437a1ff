import Foundation

/// Reads playlist files as mpv's `--playlist` does: M3U and M3U8 (a line per entry,
/// `#` lines are comments or tags), PLS (`FileN=` entries), or a plain list of lines.
/// Relative entries are taken from the playlist's directory; URLs are kept as they are.
///
/// An HLS playlist (one with `#EXT-X-` tags) is a stream, not a list of inputs: it is
/// returned as its own single entry, for FFmpeg's HLS demuxer to play.
public enum PlaylistFile {
    /// Playlists are text; a bigger file is not one.
    public static let maximumBytes = 16 << 20
    /// More entries than this are refused rather than held.
    public static let maximumEntries = 100_000

    /// The entries of the playlist at `path`.
    public static func entries(atPath path: String) throws(PlaylistFileError) -> [String] {
        guard let data = CappedFileRead.bytes(atPath: path, limit: maximumBytes) else { throw .unreadable(path) }
        return try entries(of: data, path: path)
    }

    /// The entries of `data`, the bytes of the playlist file at `path`.
    public static func entries(of data: Data, path: String) throws(PlaylistFileError) -> [String] {
        guard data.count <= maximumBytes else { throw .tooLarge(path, limit: maximumBytes) }
        // M3U8 and PLS are UTF-8; plain M3U is traditionally Latin-1. Text has no NUL.
        guard !data.contains(0), let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else { throw .notText(path) }
        if isHLS(text) { return [path] }
        let found = try entries(in: text, baseDirectory: (path as NSString).deletingLastPathComponent)
        guard !found.isEmpty else { throw .empty(path) }
        return found
    }

    /// The entries of playlist `text`, relative ones under `baseDirectory` (as they are
    /// when it is empty: the working directory).
    public static func entries(in text: String, baseDirectory: String) throws(PlaylistFileError) -> [String] {
        let text = text.unicodeScalars.first == "\u{FEFF}" ? Substring(text.unicodeScalars.dropFirst()) : Substring(text)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        let isPLS = lines.first { !$0.isEmpty }?.lowercased() == "[playlist]"
        var found: [String] = []
        if isPLS {
            var numbered: [(number: Int, entry: String)] = []
            for line in lines {
                guard line.lowercased().hasPrefix("file"), let equals = line.firstIndex(of: "="),
                      let number = Int(line[line.index(line.startIndex, offsetBy: 4)..<equals]) else { continue }
                numbered.append((number, String(line[line.index(after: equals)...])))
                guard numbered.count <= maximumEntries else { throw .tooManyEntries(limit: maximumEntries) }
            }
            found = numbered.sorted { $0.number < $1.number }.map(\.entry)
        } else {
            for line in lines where !line.isEmpty && !line.startsWithBytes("#") {
                found.append(line)
                guard found.count <= maximumEntries else { throw .tooManyEntries(limit: maximumEntries) }
            }
        }
        return found.filter { !$0.isEmpty }.map { resolve($0, under: baseDirectory) }
    }

    /// Whether `text` is an HLS playlist (a stream's segments or variants).
    public static func isHLS(_ text: String) -> Bool {
        text.contains("#EXT-X-")
    }

    /// An entry as a path or URL the player opens.
    static func resolve(_ entry: String, under directory: String) -> String {
        if entry.startsWithBytes("file://") {
            // Only `file:///path` names a local file; anything else (`file://name`, a host
            // and no path) is kept as written, for the player to say it cannot open it.
            let path = URL(string: entry)?.path ?? String(entry.dropFirst("file://".count))
            return path.startsWithBytes("/") ? path : entry
        }
        if hasScheme(entry) || entry.startsWithBytes("/") || directory.isEmpty { return entry }
        return (directory as NSString).appendingPathComponent(entry)
    }

    /// `scheme:` before any slash, as in `http://`, `rtsp://`, `udp://`.
    private static func hasScheme(_ entry: String) -> Bool {
        guard let colon = entry.firstIndex(of: ":"), colon > entry.startIndex else { return false }
        let scheme = entry[..<colon]
        return scheme.count > 1 && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
            && scheme.first!.isLetter
    }
}

extension StringProtocol {
    /// `hasPrefix` by bytes: a combining mark after `/` or `#` makes one character with
    /// it, and the entry is still a path from the root or a comment.
    fileprivate func startsWithBytes(_ prefix: String) -> Bool {
        utf8.starts(with: prefix.utf8)
    }
}

/// Why a playlist file gave no entries.
public enum PlaylistFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be opened or read.
    case unreadable(String)
    /// The file is bigger than any playlist (``PlaylistFile/maximumBytes``).
    case tooLarge(String, limit: Int)
    /// The file holds binary data (a NUL byte): a video given as the list, say.
    case notText(String)
    /// The file names no inputs.
    case empty(String)
    /// More entries than ``PlaylistFile/maximumEntries``.
    case tooManyEntries(limit: Int)

    public var description: String {
        switch self {
        case .unreadable(let path): "cannot read the playlist \(path)"
        case .tooLarge(let path, let limit): "\(path) is over \(limit >> 20) MiB: not a playlist"
        case .notText(let path): "\(path) is not text: not a playlist"
        case .empty(let path): "the playlist \(path) names no inputs"
        case .tooManyEntries(let limit): "the playlist has over \(limit) entries"
        }
    }
}
