/// Why subtitles could not be set up.
public enum SubtitleError: Error, CustomStringConvertible, Equatable {
    /// libass refused to start (out of memory, a broken installation).
    case libassFailed(String)

    public var description: String {
        switch self {
        case .libassFailed(let why): "subtitles: \(why)"
        }
    }
}
