/// A value that JSON holds in its text form (`"30000/1001"`, `"16:9"`), as ffprobe writes it.
public protocol TextCodable: Codable, CustomStringConvertible {
    /// Reads the value from its text form; `nil` when malformed.
    init?(parsing text: String)
}

extension TextCodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "cannot read \(Self.self) from '\(text)'")
        }
        self = value
    }
}
