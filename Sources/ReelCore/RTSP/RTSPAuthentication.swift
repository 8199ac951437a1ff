import Foundation

/// A server's demand for credentials (`WWW-Authenticate`, RFC 2617 as RTSP uses it), and
/// the `Authorization` header that answers it: Digest (MD5, with or without `qop=auth`)
/// or Basic.
package struct RTSPAuthentication: Sendable, Equatable {
    package enum Scheme: String, Sendable, CaseIterable { case basic = "Basic", digest = "Digest" }
    package var scheme: Scheme
    /// The challenge's parameters by lowercased name (`realm`, `nonce`, `opaque`, `qop`, `algorithm`).
    package var parameters: [String: String]

    /// The strongest challenge a client here can answer among a response's
    /// `WWW-Authenticate` values (Digest before Basic); nil when none is one.
    package init?(challenges: [String]) {
        let parsed = challenges.compactMap(Self.parse)
        guard let best = parsed.first(where: { $0.scheme == .digest && ($0.parameters["algorithm"].map { $0.uppercased() == "MD5" } ?? true) })
                ?? parsed.first(where: { $0.scheme == .basic }) else { return nil }
        self = best
    }

    /// Whether the challenge says the last answer's nonce expired while its credentials were
    /// right (`stale=true`, RFC 2617 section 3.2.1): the client answers again with the new
    /// nonce instead of giving up.
    package var isStale: Bool { parameters["stale"]?.lowercased() == "true" }

    init(scheme: Scheme, parameters: [String: String]) {
        self.scheme = scheme
        self.parameters = parameters
    }

    private static func parse(_ challenge: String) -> RTSPAuthentication? {
        let trimmed = challenge.trimmingCharacters(in: .whitespaces)
        // Control characters (a tab aside) would be echoed into the request's own header.
        guard !trimmed.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) else { return nil }
        guard let space = trimmed.firstIndex(of: " "),
              let scheme = Scheme.allCases.first(where: { $0.rawValue.lowercased() == trimmed[..<space].lowercased() }) else { return nil }
        return RTSPAuthentication(scheme: scheme, parameters: parameterList(String(trimmed[trimmed.index(after: space)...])))
    }

    /// `name="quoted, value", name=token` into a dictionary (quoted values unescaped).
    package static func parameterList(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var characters = Substring(text)
        while !characters.isEmpty {
            characters = characters.drop { $0 == " " || $0 == "," }
            guard let equals = characters.firstIndex(of: "=") else { break }
            let name = characters[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            characters = characters[characters.index(after: equals)...].drop { $0 == " " }
            var value = ""
            if characters.first == "\"" {
                characters = characters.dropFirst()
                var escaped = false
                while let character = characters.first {
                    characters = characters.dropFirst()
                    if escaped { value.append(character); escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { break } else { value.append(character) }
                }
            } else {
                let end = characters.firstIndex(of: ",") ?? characters.endIndex
                value = characters[..<end].trimmingCharacters(in: .whitespaces)
                characters = characters[end...]
            }
            result[name] = value
        }
        return result
    }

    /// The `Authorization` value for `method` on `uri`; `md5` gives the lowercase hex MD5
    /// of a string's UTF-8 bytes. `counter` numbers the uses of one nonce (qop=auth).
    package func authorization(method: String, uri: String, user: String, password: String,
                              counter: Int = 1, clientNonce: String = "", md5: (String) -> String) -> String {
        switch scheme {
        case .basic:
            return "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        case .digest:
            let realm = parameters["realm"] ?? "", nonce = parameters["nonce"] ?? ""
            let first = md5("\(user):\(realm):\(password)")
            let second = md5("\(method):\(uri)")
            let offersAuth = parameters["qop"].map { $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "auth" } } ?? false
            let count = String(format: "%08x", counter)
            let response = offersAuth ? md5("\(first):\(nonce):\(count):\(clientNonce):auth:\(second)") : md5("\(first):\(nonce):\(second)")
            var fields = ["username=\(Self.quoted(user))", "realm=\(Self.quoted(realm))", "nonce=\(Self.quoted(nonce))", "uri=\(Self.quoted(uri))",
                          "response=\"\(response)\""]
            if let opaque = parameters["opaque"] { fields.append("opaque=\(Self.quoted(opaque))") }
            if let algorithm = parameters["algorithm"] { fields.append("algorithm=\(algorithm)") }
            if offersAuth { fields += ["qop=auth", "nc=\(count)", "cnonce=\"\(clientNonce)\""] }
            return "Digest " + fields.joined(separator: ", ")
        }
    }

    /// `value` as a quoted string (RFC 7230 3.2.6): a quote or backslash in it escaped.
    static func quoted(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
