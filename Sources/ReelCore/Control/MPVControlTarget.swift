import Foundation

/// What a player shows of itself to mpv's JSON IPC (``MPVIPCSession``): its properties, by
/// mpv's names and types, and the commands that are the player's own (`loadfile`, `seek`,
/// `screenshot-to-file`…). The session does the protocol and the commands that only read
/// and write properties (`set`, `add`, `cycle`, `multiply`, `observe_property`…).
public protocol MPVControlTarget: AnyObject, Sendable {
    /// Every property name, as `property-list` gives them.
    var propertyNames: [String] { get }
    /// Every command the target runs (``run(_:_:)``), as `command-list` gives them.
    var commandNames: [String] { get }
    /// The property's type; nil when there is no such property.
    func kind(of property: String) -> MPVPropertyKind?
    /// The property's value now; nil when it has none now (nothing is loaded: mpv's
    /// "property unavailable").
    func value(of property: String) -> JSONValue?
    /// Sets a writable property; `value` is of the property's kind already (the session
    /// converts strings such as "yes" and "50").
    func set(_ property: String, to value: JSONValue) throws(MPVError)
    /// Runs one of ``commandNames`` (its arguments as sent: text commands' are strings);
    /// what the reply's `data` holds.
    func run(_ command: String, _ arguments: [JSONValue]) throws(MPVError) -> JSONValue
}

/// A property's type, which says how a value sent as text is read and how the value is
/// written for `get_property_string`.
public enum MPVPropertyKind: Sendable, Equatable {
    /// true or false; "yes" or "no" as text.
    case flag
    /// Any number; "%f" as text (mpv writes `50.000000`).
    case number
    /// A whole number.
    case integer
    /// Text.
    case string
    /// A track id from 1, or "no" (false) for none, or "auto".
    case track
    /// A list or map, read only.
    case node

    /// `value` (sent as JSON or as text) as a value of this kind; nil when it is not one.
    public func coerce(_ value: JSONValue) -> JSONValue? {
        switch (self, value) {
        case (.flag, .bool): return value
        case (.flag, .string("yes")): return .bool(true)
        case (.flag, .string("no")): return .bool(false)
        case (.number, .integer(let number)): return .number(Double(number))
        case (.number, .number(let number)) where number.isFinite: return value
        case (.number, .string(let text)): return Double(text).flatMap { $0.isFinite ? .number($0) : nil }
        case (.integer, _): return (value.integer ?? value.string.flatMap { Int($0) }).map(JSONValue.integer)
        case (.string, .string): return value
        case (.track, .bool(false)), (.track, .string("no")): return .string("no")
        case (.track, .string("auto")): return value
        case (.track, _):
            let number = value.integer ?? value.string.flatMap { Int($0) }
            return number.flatMap { $0 >= 1 ? .integer($0) : nil }
        default: return nil
        }
    }

    /// `value` written as mpv's `get_property_string` writes a value of this kind.
    public func text(of value: JSONValue) -> String {
        switch value {
        case .bool(let flag): flag ? "yes" : "no"
        case .number(let number): String(format: "%f", number)
        case .integer(let number) where self == .number: String(format: "%f", Double(number))
        case .integer(let number): String(number)
        case .string(let text): text
        case .null: ""
        case .array, .object: value.jsonText
        }
    }
}

extension JSONValue {
    /// A number, sent as a number or as text (a text command's arguments are text).
    public var numeric: Double? {
        if let double { return double.isFinite ? double : nil }
        return string.flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil }
    }
}
