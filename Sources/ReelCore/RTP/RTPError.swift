/// Why an RTP or RTCP packet, an SDP or a payload was rejected.
public struct RTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    /// An error that says what is wrong in `description`.
    public init(_ description: String) { self.description = description }
}
