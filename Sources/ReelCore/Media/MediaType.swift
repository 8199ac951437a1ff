/// What a stream carries.
public enum MediaType: String, Sendable, Codable, CaseIterable {
    case video, audio, subtitle, data, attachment, unknown
}
