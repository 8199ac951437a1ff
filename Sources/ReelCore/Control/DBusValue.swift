/// A value carried in a D-Bus message, of the types the MPRIS interfaces use: what the
/// D-Bus adapter turns into GVariants and back.
public enum DBusValue: Sendable, Equatable {
    /// `s`.
    case string(String)
    /// `o`: an object's path (`/org/mpris/MediaPlayer2/Track/1`).
    case objectPath(String)
    /// `b`.
    case bool(Bool)
    /// `x`.
    case int64(Int64)
    /// `d`.
    case double(Double)
    /// `as`.
    case strings([String])
    /// `a{sv}`: names and values of any type, as MPRIS metadata is.
    case dictionary([String: DBusValue])

    /// The D-Bus type signature.
    public var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .bool: "b"
        case .int64: "x"
        case .double: "d"
        case .strings: "as"
        case .dictionary: "a{sv}"
        }
    }
}
