/// One message a client of mpv's JSON IPC sent: a command with its arguments.
///
/// A line whose first character (after spaces) is `{` is JSON:
/// `{"command": ["seek", 10, "absolute"], "request_id": 7}`; any other line is a text
/// command as mpv's input.conf writes them (`seek 10 absolute`), which gets no reply.
/// Empty lines and lines starting with `#` are no request.
public struct MPVRequest: Sendable, Equatable {
    /// The command's name (`get_property`, `seek`…).
    public var name: String
    /// Its arguments, as JSON values (a text command's are strings).
    public var arguments: [JSONValue]
    /// Copied into the reply; mpv answers 0 when a request has none.
    public var requestID: JSONValue
    /// Whether a reply is expected (JSON requests; text commands get none).
    public var wantsReply: Bool

    /// A request of the command `name` with its arguments.
    public init(name: String, arguments: [JSONValue] = [], requestID: JSONValue = .integer(0), wantsReply: Bool = true) {
        self.name = name
        self.arguments = arguments
        self.requestID = requestID
        self.wantsReply = wantsReply
    }

    /// What a line holds: a request, nothing (blank or a comment), or a malformed message
    /// (answered with ``MPVError/invalidParameter``, with the request id when one was read).
    public enum Parsed: Sendable, Equatable {
        /// A command to run.
        case request(MPVRequest)
        /// A blank line or a comment.
        case nothing
        /// Not a request mpv would read: answered with ``MPVError/invalidParameter``.
        case malformed(requestID: JSONValue)
    }

    /// Reads one line (without its line break).
    public static func parse(_ line: String) -> Parsed {
        let text = line.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
        if text.isEmpty || text.hasPrefix("#") { return .nothing }
        guard text.hasPrefix("{") else {
            let words = MPVCommandText.words(of: String(text))
            guard let name = words.first else { return .nothing }
            return .request(MPVRequest(name: name, arguments: words.dropFirst().map(JSONValue.string), wantsReply: false))
        }
        guard case .object(let message)? = JSONValue(parsing: String(text)) else { return .malformed(requestID: .integer(0)) }
        let requestID = message["request_id"] ?? .integer(0)
        guard case .array(let command)? = message["command"], case .string(let name)? = command.first else {
            return .malformed(requestID: requestID)
        }
        return .request(MPVRequest(name: name, arguments: Array(command.dropFirst()), requestID: requestID))
    }
}

/// The words of a text command as mpv's input.conf splits them: on spaces, with
/// double-quoted strings (backslash escapes inside) and single-quoted ones (none) kept whole.
enum MPVCommandText {
    static func words(of line: String) -> [String] {
        var words: [String] = []
        var characters = line[...]
        while true {
            characters = characters.drop { $0 == " " || $0 == "\t" }
            guard let first = characters.first, first != "#" else { return words }
            var word = ""
            if first == "\"" {
                characters = characters.dropFirst()
                while let character = characters.popFirst(), character != "\"" {
                    if character == "\\", let escaped = characters.popFirst() {
                        switch escaped {
                        case "n": word.append("\n")
                        case "t": word.append("\t")
                        default: word.append(escaped)
                        }
                    } else {
                        word.append(character)
                    }
                }
            } else if first == "'" {
                characters = characters.dropFirst()
                while let character = characters.popFirst(), character != "'" { word.append(character) }
            } else {
                while let character = characters.first, character != " ", character != "\t" {
                    word.append(character)
                    characters = characters.dropFirst()
                }
            }
            words.append(word)
        }
    }
}
