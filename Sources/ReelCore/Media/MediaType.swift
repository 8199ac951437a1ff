/// What a stream carries.
public enum MediaType: String, Sendable, Codable, CaseIterable {
    /// Pictures.
    case video
    /// Sound.
    case audio
    /// Subtitles or captions.
    case subtitle
    /// Timed data (timecodes, metadata tracks).
    case data
    /// A file attached to the container (Matroska fonts, cover art files).
    case attachment
    /// A stream FFmpeg cannot type.
    case unknown
}
