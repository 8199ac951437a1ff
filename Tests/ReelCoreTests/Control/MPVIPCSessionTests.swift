import Foundation
import ReelCore
import Testing

/// A player with a few of mpv's properties, and a log of the commands run on it.
private final class FakeTarget: MPVControlTarget, @unchecked Sendable {
    var values: [String: JSONValue?] = ["pause": .bool(false), "volume": .number(100), "time-pos": nil, "aid": .integer(1), "track-list": .array([])]
    var commandsRun: [(String, [JSONValue])] = []
    let propertyNames = ["aid", "pause", "time-pos", "track-list", "volume"]
    let commandNames = ["seek", "cycle"]

    func kind(of property: String) -> MPVPropertyKind? {
        ["pause": .flag, "volume": .number, "time-pos": .number, "aid": .track, "track-list": .node][property]
    }
    func value(of property: String) -> JSONValue? { values[property] ?? nil }
    func set(_ property: String, to value: JSONValue) throws(MPVError) {
        guard property != "time-pos" else { throw .propertyUnavailable }
        values[property] = value
    }
    func run(_ command: String, _ arguments: [JSONValue]) throws(MPVError) -> JSONValue {
        commandsRun.append((command, arguments))
        return .string("ran \(command)")
    }
}

/// The lines as JSON objects, for comparing without caring about key order.
private func objects(_ lines: [String]) -> [JSONValue] { lines.map { JSONValue(parsing: $0) ?? .null } }

@Suite struct MPVIPCSessionTests {
    private let target = FakeTarget()
    private var session: MPVIPCSession { MPVIPCSession(target: target, clientName: "ipc-3") { 42 } }

    @Test func getPropertyAnswersWithTheRequestIDAndMpvsErrorStrings() {
        let session = session
        #expect(objects(session.handle(line: #"{"command": ["get_property", "volume"], "request_id": 7}"#))
            == [["data": 100.0, "error": "success", "request_id": 7]])
        // Without an id mpv answers 0; a property with no value now, and none at all.
        #expect(objects(session.handle(line: #"{"command": ["get_property", "time-pos"]}"#)) == [["error": "property unavailable", "request_id": 0]])
        #expect(objects(session.handle(line: #"{"command": ["get_property", "no-such"], "request_id": 1}"#))
            == [["error": "property not found", "request_id": 1]])
        #expect(objects(session.handle(line: #"{"command": ["get_property_string", "volume"], "request_id": 2}"#))
            == [["data": "100.000000", "error": "success", "request_id": 2]])
        #expect(objects(session.handle(line: #"{"command": ["get_property_string", "pause"], "request_id": 3}"#))
            == [["data": "no", "error": "success", "request_id": 3]])
    }

    @Test func setPropertyTakesJSONValuesAndMpvsTextForms() {
        let session = session
        #expect(objects(session.handle(line: #"{"command": ["set_property", "pause", true]}"#)) == [["error": "success", "request_id": 0]])
        #expect(target.values["pause"] == .bool(true))
        _ = session.handle(line: #"{"command": ["set_property_string", "pause", "no"]}"#)
        #expect(target.values["pause"] == .bool(false))
        _ = session.handle(line: #"{"command": ["set_property", "volume", 50]}"#)
        #expect(target.values["volume"] == .number(50))
        #expect(objects(session.handle(line: #"{"command": ["set_property", "volume", "loud"], "request_id": 4}"#))
            == [["error": "unsupported format for accessing property", "request_id": 4]])
        #expect(objects(session.handle(line: #"{"command": ["set_property", "track-list", []], "request_id": 5}"#))
            == [["error": "error accessing property", "request_id": 5]])
        // A track: a number from 1, or no (false).
        _ = session.handle(line: #"{"command": ["set_property", "aid", false]}"#)
        #expect(target.values["aid"] == .string("no"))
        _ = session.handle(line: #"{"command": ["set_property", "aid", "2"]}"#)
        #expect(target.values["aid"] == .integer(2))
        #expect(objects(session.handle(line: #"{"command": ["set_property", "aid", 0], "request_id": 6}"#))
            == [["error": "unsupported format for accessing property", "request_id": 6]])
    }

    @Test func addCycleAndMultiplyWorkOnProperties() {
        let session = session
        _ = session.handle(line: #"{"command": ["add", "volume", -10]}"#)
        #expect(target.values["volume"] == .number(90))
        _ = session.handle(line: #"{"command": ["multiply", "volume", 0.5]}"#)
        #expect(target.values["volume"] == .number(45))
        _ = session.handle(line: #"{"command": ["cycle", "pause"]}"#)
        #expect(target.values["pause"] == .bool(true))
        // Cycling anything but a flag is the target's (tracks).
        #expect(objects(session.handle(line: #"{"command": ["cycle", "aid"], "request_id": 1}"#)) == [["data": "ran cycle", "error": "success", "request_id": 1]])
    }

    @Test func textCommandsRunWithoutAReply() {
        let session = session
        #expect(session.handle(line: "set pause yes").isEmpty)
        #expect(target.values["pause"] == .bool(true))
        #expect(session.handle(line: #"  seek "10" absolute # a comment"#).isEmpty)
        #expect(target.commandsRun.count == 1 && target.commandsRun[0].0 == "seek" && target.commandsRun[0].1 == ["10", "absolute"])
        #expect(session.handle(line: "# only a comment").isEmpty && session.handle(line: "").isEmpty)
    }

    @Test func malformedRequestsAreAnsweredNotFatal() {
        let session = session
        let invalid: JSONValue = ["error": "invalid parameter", "request_id": 0]
        #expect(objects(session.handle(line: "{not json")) == [invalid])
        #expect(objects(session.handle(line: #"{"command": "get_property"}"#)) == [invalid])
        #expect(objects(session.handle(line: #"{"command": []}"#)) == [invalid])
        #expect(objects(session.handle(line: #"{"command": ["no-such-command"], "request_id": 9}"#)) == [["error": "invalid parameter", "request_id": 9]])
        #expect(objects(session.handle(line: #"{"command": ["get_property"]}"#)) == [invalid])
        #expect(objects(session.handle(line: #"{"command": ["observe_property", "x", "volume"]}"#)) == [invalid])
        // Nested too deep for the parser.
        #expect(objects(session.handle(line: "{\"command\": " + String(repeating: "[", count: 10000) + "}")) == [invalid])
    }

    @Test func observedPropertiesAreSentOnceThenOnEachChange() {
        let session = session
        let lines = session.handle(line: #"{"command": ["observe_property", 1, "volume"], "request_id": 1}"#)
        #expect(objects(lines) == [["error": "success", "request_id": 1],
                                   ["event": "property-change", "id": 1, "name": "volume", "data": 100.0]])
        #expect(session.propertyChanges().isEmpty, "nothing changed")
        target.values["volume"] = .number(52)
        #expect(objects(session.propertyChanges()) == [["event": "property-change", "id": 1, "name": "volume", "data": 52.0]])
        // Unavailable: no data field, as mpv sends it.
        _ = session.handle(line: #"{"command": ["observe_property_string", 2, "time-pos"]}"#)
        target.values["time-pos"] = .number(1.5)
        #expect(objects(session.propertyChanges()) == [["event": "property-change", "id": 2, "name": "time-pos", "data": "1.500000"]])
        _ = session.handle(line: #"{"command": ["unobserve_property", 1]}"#)
        target.values["volume"] = .number(10)
        #expect(session.propertyChanges().isEmpty)
        #expect(objects(session.handle(line: #"{"command": ["observe_property", 3, "no-such"], "request_id": 3}"#))
            == [["error": "property not found", "request_id": 3]])
    }

    @Test func eventsCanBeDisabled() {
        let session = session
        #expect(session.event("seek").flatMap(JSONValue.init(parsing:)) == ["event": "seek"])
        #expect(session.event("end-file", ["reason": "eof"]).flatMap(JSONValue.init(parsing:)) == ["event": "end-file", "reason": "eof"])
        _ = session.handle(line: #"{"command": ["disable_event", "seek"]}"#)
        #expect(session.event("seek") == nil && session.event("pause") != nil)
        _ = session.handle(line: #"{"command": ["disable_event", "all"]}"#)
        #expect(session.event("pause") == nil)
        _ = session.handle(line: #"{"command": ["enable_event", "pause"]}"#)
        #expect(session.event("pause") != nil)
    }

    @Test func listsAndProtocolCommands() {
        let session = session
        let properties = objects(session.handle(line: #"{"command": ["get_property", "property-list"]}"#)).first?.object?["data"]
        #expect(properties == .array(["aid", "pause", "time-pos", "track-list", "volume", "property-list", "command-list"]))
        let commands = objects(session.handle(line: #"{"command": ["get_property", "command-list"]}"#)).first?.object?["data"]
        guard case .array(let list)? = commands else { Issue.record("no command list"); return }
        #expect(list.contains(["name": "seek"]) && list.contains(["name": "observe_property"]))
        #expect(objects(session.handle(line: #"{"command": ["client_name"]}"#)).first?.object?["data"] == "ipc-3")
        #expect(objects(session.handle(line: #"{"command": ["get_time_us"]}"#)).first?.object?["data"] == 42)
    }
}

extension JSONValue {
    fileprivate var object: [String: JSONValue]? { if case .object(let fields) = self { fields } else { nil } }
}
