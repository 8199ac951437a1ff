/// The errors mpv's JSON IPC answers with, by the strings mpv gives them
/// (`mpv_error_string`), so that clients written for mpv recognise them.
public enum MPVError: String, Error, Sendable, Equatable {
    /// A malformed request, an unknown command, or a wrong argument.
    case invalidParameter = "invalid parameter"
    /// No property of that name.
    case propertyNotFound = "property not found"
    /// A value of the wrong type for the property.
    case propertyFormat = "unsupported format for accessing property"
    /// The property has no value now (nothing is loaded, no chapters…).
    case propertyUnavailable = "property unavailable"
    /// The property cannot be set (read only), or not to that value.
    case propertyError = "error accessing property"
    /// The command could not be carried out now.
    case commandFailed = "error running command"
}
