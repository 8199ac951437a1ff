/// What went wrong in a GStreamer pipeline, with GStreamer's own words.
public struct GStreamerError: Error, Sendable, CustomStringConvertible {
    /// The error's message (`GError.message`).
    public var message: String
    /// GStreamer's debug text: the element and the reason, when it gave one.
    public var debug: String?

    /// An error that GStreamer reported, or Reel found while driving it.
    public init(_ message: String, debug: String? = nil) {
        self.message = message
        self.debug = debug
    }

    public var description: String {
        guard let debug, !debug.isEmpty else { return message }
        return "\(message) (\(debug))"
    }
}
