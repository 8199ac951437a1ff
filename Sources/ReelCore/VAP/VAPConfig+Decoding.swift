import Foundation

extension VAPConfig {
    /// Largest `vapc` body read (real ones are a few kilobytes; a fusion animation with an
    /// entry for every frame of a long animation stays well below).
    public static let maxJSONBytes = 8 << 20
    /// Most frames an animation may declare.
    public static let maxFrameCount = 1_000_000

    /// Decodes and validates the JSON of a `vapc` box.
    public static func decode(json: [UInt8]) throws -> VAPConfig {
        guard json.count <= maxJSONBytes else { throw VAPError.invalidJSON("\(json.count) bytes, more than \(maxJSONBytes)") }
        let config: VAPConfig
        do {
            config = try JSONDecoder().decode(VAPConfig.self, from: Data(json))
        } catch let error as DecodingError {
            throw VAPError(error)
        } catch {
            throw VAPError.invalidJSON("\(error)")
        }
        try config.validate()
        return config
    }

    /// The JSON a `vapc` box holds, keys in VAP's names.
    public func json() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(self))
    }
}

extension VAPError {
    init(_ error: DecodingError) {
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            (codingPath + (last.map { [$0] } ?? [])).map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
                .joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .keyNotFound(let key, let context): self = .missingField(path: path(context.codingPath, key))
        case .valueNotFound(_, let context): self = .missingField(path: path(context.codingPath))
        case .typeMismatch(let type, let context): self = .invalidField(path: path(context.codingPath), reason: "expected \(type)")
        case .dataCorrupted(let context) where context.codingPath.isEmpty: self = .invalidJSON(context.debugDescription)
        case .dataCorrupted(let context): self = .invalidField(path: path(context.codingPath), reason: context.debugDescription)
        @unknown default: self = .invalidJSON("\(error)")
        }
    }
}
