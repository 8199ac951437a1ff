import Foundation
/// Opening or reading an input failed.
///
/// ``description`` is one line a user can act on, naming the input, what was being done
/// and why it failed; ``code`` keeps the underlying library's error code.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why an input failed, as far as Reel can tell.
    public enum Reason: Sendable, Equatable {
        /// No file or resource at that address.
        case notFound
        /// The file or resource exists but may not be read.
        case permissionDenied
        /// The input holds no bytes at all.
        case emptyInput
        /// The bytes are not a container Reel can read, or are damaged.
        case invalidData
        /// The input ends before the container says it should.
        case truncated
        /// The container holds no stream Reel can play.
        case noStreams
        /// No installed demuxer or decoder reads it (an engine lacks the plug-in).
        case unsupportedFormat
        /// Nothing listens at that address.
        case connectionRefused
        /// The input did not answer within the timeout, in seconds.
        case timedOut(seconds: Double)
        /// The operation was interrupted (a stop, a close, a cancelled task).
        case cancelled
        /// The URL's scheme is not one FFmpeg was built with.
        case unsupportedProtocol
        /// An HTTP server answered with this status.
        case httpStatus(Int)
        /// A TLS server's certificate is not signed by an authority trusted here, or names
        /// another host.
        case untrustedCertificate
        /// A live input's timestamps jumped (back, or far on): its sender restarted.
        case timestampsJumped(from: Double, to: Double)
        /// Any other failure; ``code`` and ``detail`` say more.
        case other
    }

    /// What was being done; the raw value is how the message says it.
    public enum Operation: String, Sendable {
        /// Opening the input.
        case open = "open"
        /// Reading packets.
        case read = "read"
        /// Seeking.
        case seek = "seek in"
    }

    /// Why it failed.
    public var reason: Reason
    /// What was being done.
    public var operation: Operation
    /// The input's URL or path, as given.
    public var url: String
    /// The underlying library's error code (a negative `AVERROR`), if there was one.
    public var code: Int32?
    /// The underlying library's own words, if it said something useful.
    public var detail: String?

    /// An error; `code` and `detail` come from the library that failed, when it said.
    public init(_ reason: Reason, operation: Operation, url: String, code: Int32? = nil, detail: String? = nil) {
        self.reason = reason
        self.operation = operation
        self.url = url
        self.code = code
        self.detail = detail
    }

    public var description: String {
        var line = "cannot \(operation.rawValue) '\(url)': \(reasonText)"
        if let detail, !detail.isEmpty, detail.lowercased() != reasonText.lowercased() { line += " (\(detail))" }
        return Self.redactingSecrets(line)
    }

    /// `line` with the secrets URLs carry masked: the password of `scheme://user:password@`
    /// and SRT's `passphrase=`. A line a user reads (and logs keep) shows neither.
    static func redactingSecrets(_ line: String) -> String {
        var line = line
        for (pattern, template) in [("(://[^/\\s'@:]*:)[^/\\s']*@", "$1***@"), ("(passphrase=)[^&\\s')]*", "$1***")] {
            guard let expression = try? NSRegularExpression(pattern: pattern) else { continue }
            line = expression.stringByReplacingMatches(in: line, range: NSRange(line.startIndex..., in: line), withTemplate: template)
        }
        return line
    }

    private var reasonText: String {
        switch reason {
        case .notFound: "no such file or directory"
        case .permissionDenied: "permission denied"
        case .emptyInput: "the input is empty"
        case .invalidData: "not a media file Reel can read, or the data is damaged"
        case .truncated: "the input is truncated"
        case .noStreams: "no audio or video streams"
        case .unsupportedFormat: "no installed demuxer or decoder reads it"
        case .connectionRefused: "connection refused (nothing is listening there)"
        case .timedOut(let seconds): "no answer within \(MediaTime.formatSeconds(seconds).replacingTrailingZeros()) s"
        case .cancelled: "cancelled"
        case .unsupportedProtocol: "unsupported protocol"
        case .httpStatus(401): "the server wants credentials it was not given, or refused them (401)"
        case .httpStatus(403): "the server forbids access (403)"
        case .httpStatus(404): "the server has nothing at that address (404)"
        case .httpStatus(let status): "the server answered \(status)"
        case .untrustedCertificate: "the server's TLS certificate is not trusted"
        case .timestampsJumped(let from, let to): String(format: "its timestamps jumped from %.1f s to %.1f s (the sender restarted)", from, to)
        case .other: "input/output error"
        }
    }
}

extension String {
    /// `"2.500000"` → `"2.5"`, `"3.000000"` → `"3"`.
    func replacingTrailingZeros() -> String {
        guard contains(".") else { return self }
        var text = Substring(self)
        while text.hasSuffix("0") { text = text.dropLast() }
        if text.hasSuffix(".") { text = text.dropLast() }
        return String(text)
    }
}
