/// Setting up a decoder or decoding failed.
public struct DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why decoding failed, as far as Reel can tell.
    public enum Reason: Sendable, Equatable {
        /// The input has no stream of the kind asked for.
        case noSuchStream(MediaType)
        /// No decoder for this codec is available in the FFmpeg build.
        case decoderNotFound
        /// The decoder would not open with the stream's parameters.
        case openFailed
        /// The decoder rejected the data as damaged or not of its codec.
        case invalidData
        /// A picture or audio buffer would exceed Reel's size limits.
        case tooLarge
        /// Any other failure; ``code`` and ``detail`` say more.
        case other
    }

    /// Why it failed.
    public var reason: Reason
    /// The codec involved (`h264`), when known.
    public var codec: String?
    /// The underlying library's error code (a negative `AVERROR`), if there was one.
    public var code: Int32?
    /// The underlying library's own words, if it said something useful.
    public var detail: String?

    /// An error; `code` and `detail` come from the library that failed, when it said.
    public init(_ reason: Reason, codec: String? = nil, code: Int32? = nil, detail: String? = nil) {
        self.reason = reason
        self.codec = codec
        self.code = code
        self.detail = detail
    }

    public var description: String {
        let subject = codec.map { "\($0) " } ?? ""
        var line: String
        switch reason {
        case .noSuchStream(let type): line = "the input has no \(type.rawValue) stream"
        case .decoderNotFound: line = "no \(subject)decoder is available in this FFmpeg build"
        case .openFailed: line = "cannot open the \(subject)decoder"
        case .invalidData: line = "the \(subject)stream is damaged and cannot be decoded"
        case .tooLarge: line = "the \(subject)stream's frames exceed Reel's size limits"
        case .other: line = "\(subject)decoding failed"
        }
        if let detail, !detail.isEmpty { line += " (\(detail))" }
        return line
    }
}
