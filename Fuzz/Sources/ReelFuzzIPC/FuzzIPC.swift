import Foundation
@testable import ReelCore

/// libFuzzer's entry: what a client of mpv's JSON IPC sends, line by line, to a session
/// over a target that takes any value. Every line the session writes is one JSON object
/// (a reply with an `error`, or an event), a JSON request gets exactly one reply, and a
/// text command none.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIPC(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let session = MPVIPCSession(target: AnyTarget(), clientName: "ipc-0") { 0 }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let written = session.handle(line: String(line))
        var replies = 0
        for output in written {
            guard output.utf8.allSatisfy({ $0 != UInt8(ascii: "\n") }), case .object(let fields)? = JSONValue(parsing: output) else {
                fatalError("not one line of a JSON object: \(output.debugDescription)")
            }
            if fields["event"] == nil {
                guard fields["error"]?.string != nil else { fatalError("a reply without an error field: \(output)") }
                replies += 1
            }
        }
        let isJSON = line.drop { $0 == " " || $0 == "\t" || $0 == "\r" }.hasPrefix("{")
        if replies != (isJSON ? 1 : 0) { fatalError("\(replies) replies to \(line.debugDescription)") }
        _ = MPVCommandText.words(of: String(line))
    }
    return 0
}

/// Properties of every kind, each settable; commands that answer what they were given.
private final class AnyTarget: MPVControlTarget, @unchecked Sendable {
    var values: [String: JSONValue] = ["pause": false, "volume": 100.0, "aid": 1, "path": "/a.mp4", "track-list": []]
    let propertyNames = ["aid", "chapter", "path", "pause", "track-list", "volume"]
    let commandNames = ["seek", "loadfile", "cycle"]
    func kind(of property: String) -> MPVPropertyKind? {
        ["pause": .flag, "volume": .number, "aid": .track, "path": .string, "track-list": .node, "chapter": .integer][property]
    }
    func value(of property: String) -> JSONValue? { values[property] }
    func set(_ property: String, to value: JSONValue) throws(MPVError) {
        guard kind(of: property)?.coerce(value) == value else { fatalError("\(property) set to \(value), not of its kind") }
        values[property] = value
    }
    func run(_ command: String, _ arguments: [JSONValue]) throws(MPVError) -> JSONValue { .array(arguments) }
}
