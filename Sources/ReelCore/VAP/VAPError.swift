/// What can be wrong with a VAP file or its configuration.
public enum VAPError: Error, Equatable, CustomStringConvertible {
    /// The `vapc` box is not JSON, or not the JSON VAP defines.
    case invalidJSON(String)
    /// A required key is missing (`path` names it, as `info.aFrame`).
    case missingField(path: String)
    /// A value is out of range or contradicts another (`path` names it).
    case invalidField(path: String, reason: String)
    /// The file is not an MP4 a VAP player can read.
    case unreadable(String)
    /// The file has no video track, or one in a codec other than H.264 and H.265.
    case unsupportedVideo(String)
    /// A fusion source the application did not supply.
    case missingSource(tag: String)

    public var description: String {
        switch self {
        case .invalidJSON(let detail): "the vapc box is not valid VAP JSON: \(detail)"
        case .missingField(let path): "the vapc box has no \(path)"
        case .invalidField(let path, let reason): "vapc \(path): \(reason)"
        case .unreadable(let detail): "not a readable VAP file: \(detail)"
        case .unsupportedVideo(let detail): "unsupported VAP video: \(detail)"
        case .missingSource(let tag): "no content given for the fusion source \(tag)"
        }
    }
}
