import Foundation

/// An SRTP crypto suite Reel decrypts (RFC 4568 6.2).
public enum SRTPCryptoSuite: String, Sendable, CaseIterable, Codable {
    /// AES counter mode with a 128-bit key, 80-bit HMAC-SHA1 tag (the default of RFC 4568 and ffmpeg).
    case aesCM128HMACSHA1_80 = "AES_CM_128_HMAC_SHA1_80"
    /// The same with a 32-bit tag, for tight bandwidth.
    case aesCM128HMACSHA1_32 = "AES_CM_128_HMAC_SHA1_32"

    /// The authentication tag's bytes on SRTP packets (SRTCP always carries 10).
    public var tagSize: Int { self == .aesCM128HMACSHA1_80 ? 10 : 4 }
}

/// One `a=crypto` line: a suite and its master key and salt.
public struct SDPCrypto: Sendable, Equatable {
    /// The line's tag, which an answer uses to pick the line.
    public var tag: Int
    /// The cipher and tag length.
    public var suite: SRTPCryptoSuite
    /// The 16-byte master key followed by the 14-byte master salt.
    public var keyAndSalt: [UInt8]

    /// Bytes of the master key (16) and salt (14) together.
    public static let keyAndSaltSize = 30

    /// A crypto line; `keyAndSalt` must be 30 bytes.
    public init(tag: Int = 1, suite: SRTPCryptoSuite, keyAndSalt: [UInt8]) throws(RTPError) {
        guard keyAndSalt.count == Self.keyAndSaltSize else {
            throw RTPError("an SRTP master key and salt take 30 bytes, got \(keyAndSalt.count)")
        }
        self.tag = tag
        self.suite = suite
        self.keyAndSalt = keyAndSalt
    }

    /// Key and salt given as base64, as in `inline:` (and ffmpeg's `-srtp_out_params`).
    public init(tag: Int = 1, suite: SRTPCryptoSuite, keyBase64: String) throws(RTPError) {
        guard let bytes = Data(base64Encoded: keyBase64) else { throw RTPError("the SRTP key is not base64: \(keyBase64)") }
        try self.init(tag: tag, suite: suite, keyAndSalt: [UInt8](bytes))
    }

    /// Key and salt as base64, as `inline:` writes them.
    public var keyBase64: String { Data(keyAndSalt).base64EncodedString() }

    /// The value of an `a=crypto:` attribute: `tag suite inline:key[|lifetime][|mki:len]`.
    public init(attribute value: String) throws(RTPError) {
        let fields = value.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 3, let tag = Int(fields[0]) else { throw RTPError("a=crypto needs a tag, a suite and a key: \(value)") }
        guard let suite = SRTPCryptoSuite(rawValue: String(fields[1])) else { throw RTPError("unsupported SRTP suite \(fields[1])") }
        guard fields[2].hasPrefix("inline:") else { throw RTPError("a=crypto key parameters must be inline: \(fields[2])") }
        let key = fields[2].dropFirst("inline:".count).split(separator: "|", omittingEmptySubsequences: false).first ?? ""
        try self.init(tag: tag, suite: suite, keyBase64: String(key))
    }
}
