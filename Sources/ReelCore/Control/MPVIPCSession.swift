/// One client's conversation in mpv's JSON IPC protocol: it reads the client's lines,
/// answers them through a ``MPVControlTarget``, and writes the events the client has not
/// disabled, including `property-change` for the properties it observes.
///
/// Not thread-safe: the server calls it under one lock per client. Everything it writes is
/// a line of JSON without its line break.
public final class MPVIPCSession {
    private let target: any MPVControlTarget
    private let clientName: String
    private let microseconds: () -> Int
    private var observed: [Observation] = []
    private var disabledEvents: Set<String> = []

    /// - Parameters:
    ///   - target: the player the requests drive.
    ///   - clientName: `client_name`'s answer (mpv's `ipc-N`).
    ///   - microseconds: `get_time_us`'s clock.
    public init(target: any MPVControlTarget, clientName: String, microseconds: @escaping () -> Int) {
        self.target = target
        self.clientName = clientName
        self.microseconds = microseconds
    }

    /// Answers one line from the client: the reply (none for a text command), then the
    /// changes of observed properties it caused.
    public func handle(line: String) -> [String] {
        switch MPVRequest.parse(line) {
        case .nothing:
            return []
        case .malformed(let requestID):
            return [Self.reply(requestID: requestID, result: .failure(.invalidParameter))]
        case .request(let request):
            let result = run(request)
            // Observing answers first, then sends the property's value as it is.
            let reply = request.wantsReply ? [Self.reply(requestID: request.requestID, result: result)] : []
            return reply + propertyChanges()
        }
    }

    /// `property-change` events for the observed properties whose value changed since they
    /// were last sent (each sent once when first observed).
    public func propertyChanges() -> [String] {
        guard !disabledEvents.contains("property-change") else { return [] }
        var lines: [String] = []
        for (index, observation) in observed.enumerated() {
            let value = target.value(of: observation.name)
            let kind = target.kind(of: observation.name) ?? .node
            let sent = observation.asText ? value.map { JSONValue.string(kind.text(of: $0)) } : value
            if let previous = observation.lastSent, previous == sent { continue }
            observed[index].lastSent = .some(sent)
            var fields: [String: JSONValue] = ["event": "property-change", "id": .integer(observation.id), "name": .string(observation.name)]
            if let sent { fields["data"] = sent }
            lines.append(JSONValue.object(fields).jsonText)
        }
        return lines
    }

    /// An event of the player's (`file-loaded`, `end-file`…) with its fields, unless the
    /// client disabled it.
    public func event(_ name: String, _ fields: [String: JSONValue] = [:]) -> String? {
        guard !disabledEvents.contains(name) else { return nil }
        return JSONValue.object(fields.merging(["event": .string(name)]) { _, name in name }).jsonText
    }

    // MARK: Commands

    private func run(_ request: MPVRequest) -> Result<JSONValue, MPVError> {
        let arguments = request.arguments
        do throws(MPVError) {
            switch request.name {
            case "get_property": return .success(try value(of: text(arguments, 0)))
            case "get_property_string":
                let name = try text(arguments, 0)
                return .success(.string(try kind(of: name).text(of: try value(of: name))))
            case "set_property", "set_property_string", "set":
                guard arguments.count >= 2 else { throw .invalidParameter }
                try set(text(arguments, 0), to: arguments[1])
            case "add", "multiply":
                let name = try text(arguments, 0)
                let kind = try kind(of: name)
                guard kind == .number || kind == .integer, let current = try value(of: name).double else { throw .propertyFormat }
                let step = arguments.count > 1 ? arguments[1].numeric : (request.name == "add" ? 1 : nil)
                guard let step else { throw .invalidParameter }
                try set(name, to: .number(request.name == "add" ? current + step : current * step))
            case "cycle":
                let name = try text(arguments, 0)
                guard try kind(of: name) == .flag else { return .success(try target.run("cycle", arguments)) }
                guard let current = try value(of: name).bool else { throw .propertyUnavailable }
                try set(name, to: .bool(!current))
            case "observe_property", "observe_property_string":
                guard arguments.count >= 2, let id = arguments[0].integer, let name = arguments[1].string else { throw .invalidParameter }
                guard target.kind(of: name) != nil else { throw .propertyNotFound }
                observed.append(Observation(id: id, name: name, asText: request.name == "observe_property_string"))
            case "unobserve_property":
                guard let id = arguments.first?.integer else { throw .invalidParameter }
                observed.removeAll { $0.id == id }
            case "client_name": return .success(.string(clientName))
            case "get_time_us": return .success(.integer(microseconds()))
            // The client API version mpv 0.35 answers (2.0): the protocol spoken is that one's.
            case "get_version": return .success(.integer(0x20000))
            case "enable_event", "disable_event":
                let name = try text(arguments, 0)
                let enable = request.name == "enable_event"
                if name == "all" {
                    disabledEvents = enable ? [] : Set(Self.allEvents)
                } else if enable {
                    disabledEvents.remove(name)
                } else {
                    disabledEvents.insert(name)
                }
            // No log messages are sent; asking for them is not an error in mpv either.
            case "request_log_messages": break
            default:
                guard target.commandNames.contains(request.name) else { throw .invalidParameter }
                return .success(try target.run(request.name, arguments))
            }
            return .success(.null)
        } catch {
            return .failure(error)
        }
    }

    private func text(_ arguments: [JSONValue], _ index: Int) throws(MPVError) -> String {
        guard arguments.indices.contains(index), let text = arguments[index].string else { throw .invalidParameter }
        return text
    }

    private func kind(of property: String) throws(MPVError) -> MPVPropertyKind {
        switch property {
        case "property-list", "command-list": return .node
        default:
            guard let kind = target.kind(of: property) else { throw .propertyNotFound }
            return kind
        }
    }

    private func value(of property: String) throws(MPVError) -> JSONValue {
        switch property {
        case "property-list": return .array((target.propertyNames + ["property-list", "command-list"]).map(JSONValue.string))
        case "command-list": return .array((target.commandNames + Self.sessionCommands).map { .object(["name": .string($0)]) })
        default:
            _ = try kind(of: property)
            guard let value = target.value(of: property) else { throw .propertyUnavailable }
            return value
        }
    }

    private func set(_ property: String, to value: JSONValue) throws(MPVError) {
        let kind = try kind(of: property)
        guard kind != .node else { throw .propertyError }
        guard let typed = kind.coerce(value) else { throw .propertyFormat }
        try target.set(property, to: typed)
    }

    private static func reply(requestID: JSONValue, result: Result<JSONValue, MPVError>) -> String {
        switch result {
        // A command that answers nothing has no data field, as mpv writes it.
        case .success(.null): JSONValue.object(["error": "success", "request_id": requestID]).jsonText
        case .success(let data): JSONValue.object(["data": data, "error": "success", "request_id": requestID]).jsonText
        case .failure(let error): JSONValue.object(["error": .string(error.rawValue), "request_id": requestID]).jsonText
        }
    }

    private struct Observation {
        var id: Int
        var name: String
        var asText: Bool
        /// What was last sent (nil inside: unavailable); nil until the first.
        var lastSent: JSONValue?? = nil
    }

    /// The commands the session runs itself, for `command-list`.
    static let sessionCommands = [
        "get_property", "get_property_string", "set_property", "set_property_string", "set", "add", "multiply", "cycle",
        "observe_property", "observe_property_string", "unobserve_property", "client_name", "get_time_us", "get_version",
        "enable_event", "disable_event", "request_log_messages",
    ]

    /// mpv's event names, for `disable_event all`.
    static let allEvents = [
        "start-file", "end-file", "file-loaded", "seek", "playback-restart", "shutdown", "idle", "pause", "unpause",
        "video-reconfig", "audio-reconfig", "property-change", "client-message", "log-message",
    ]
}
