/// Why an encoder session refused a setting or a frame, or stopped.
public struct EncoderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Reason: Sendable, Equatable {
        /// A property out of range or inconsistent with another (zero or odd size…).
        case invalidProperty
        /// A frame whose size or format the session cannot take.
        case invalidFrame
        /// The encoder library refused to open or failed while encoding.
        case encoderFailed
        /// The session was used before `prepare()` or after `invalidate()`.
        case invalidState
    }

    /// What kind of failure it is.
    public var reason: Reason
    /// What exactly went wrong, in words a user can act on.
    public var detail: String

    /// An error of `reason`, explained by `detail`.
    public init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    public var description: String { detail }
}
