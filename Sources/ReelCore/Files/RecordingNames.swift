/// The files a recording writes: the name given, or numbered pieces of it (`cam-000.mkv`,
/// `cam-001.mkv`…) when it is cut into segments or a reconnect starts a new file.
public enum RecordingNames {
    /// The path of file `index` (from 0) of a recording to `path`: numbered from 0 when
    /// `segmented`; else `path` itself first, then numbered from 1.
    public static func path(_ path: String, index: Int, segmented: Bool) -> String {
        if !segmented && index == 0 { return path }
        let slash = path.lastIndex(of: "/")
        let name = slash.map { path[path.index(after: $0)...] } ?? path[...]
        let number = String(index).count >= 3 ? String(index) : String(repeating: "0", count: 3 - String(index).count) + String(index)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path + "-" + number }
        return String(path[..<dot]) + "-" + number + String(path[dot...])
    }
}
