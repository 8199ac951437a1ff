/// Writing an output (a file, a socket) failed.
public struct OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file path or URL written to.
    public var destination: String
    /// What went wrong.
    public var detail: String

    /// An error writing to `destination`.
    public init(_ destination: String, _ detail: String) {
        self.destination = destination
        self.detail = detail
    }

    public var description: String { "cannot write \(destination): \(detail)" }
}
