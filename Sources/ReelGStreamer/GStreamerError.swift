/// What went wrong in a GStreamer pipeline, with GStreamer's own words.
public struct GStreamerError: Error, Sendable, CustomStringConvertible {
    /// What GStreamer's error domain and code say, as far as Reel tells them apart.
    public enum Kind: Sendable, Equatable {
        /// No resource at that address (a resource error `NOT_FOUND`).
        case notFound
        /// Credentials were wanted or refused.
        case notAuthorized
        /// The resource could not be opened or read (the reason is in GStreamer's debug text).
        case cannotRead
        /// The bytes are no format GStreamer can demux (typefinding or demuxing failed).
        case notMedia
        /// No plug-in for the format or codec.
        case missingPlugin
        /// The input has none of the streams asked for.
        case noStreams
        /// Nothing came within the time allowed.
        case timedOut
        /// Anything else.
        case other
    }

    /// The error's message (`GError.message`).
    public var message: String
    /// GStreamer's debug text: the element and the reason, when it gave one.
    public var debug: String?
    /// What kind of failure it is.
    public var kind: Kind

    /// An error that GStreamer reported, or Reel found while driving it.
    public init(_ message: String, debug: String? = nil, kind: Kind = .other) {
        self.message = message
        self.debug = debug
        self.kind = kind
    }

    public var description: String {
        guard let debug, !debug.isEmpty else { return message }
        return "\(message) (\(debug))"
    }
}
