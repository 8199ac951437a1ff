import Foundation

/// Where a WebRTC session is signalled over HTTP: a WHEP endpoint to watch a stream
/// (draft-ietf-wish-whep) or a WHIP endpoint to publish one (RFC 9725). Both take the
/// offer as an HTTP POST of SDP and answer with SDP and the session's `Location`.
///
/// Named by Reel as `whep+http://…` / `whep+https://…` (and `whip+…`), or as a plain
/// `http(s)` URL whose path ends in `/whep` (`/whip`), as MediaMTX and go2rtc name theirs;
/// `--whep` makes any `http(s)` URL one.
package struct WebRTCEndpoint: Sendable, Equatable {
    /// Which way the media goes.
    package enum Role: String, Sendable {
        /// WHEP: the server sends, Reel receives.
        case watch = "whep"
        /// WHIP: Reel sends, the server receives.
        case publish = "whip"
    }

    package var role: Role
    /// The `http` or `https` URL the offer is posted to.
    package var url: String

    /// The endpoint `url` names, or nil when it names none; `forced` makes a plain
    /// `http(s)` URL an endpoint of that role.
    package init?(_ url: String, forced: Role? = nil) {
        let lowered = url.lowercased()
        for role in [Role.watch, .publish] {
            for scheme in ["http", "https"] where lowered.hasPrefix("\(role.rawValue)+\(scheme)://") {
                self.role = role
                self.url = String(url.dropFirst(role.rawValue.count + 1))
                return
            }
        }
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return nil }
        if let forced {
            (role, self.url) = (forced, url)
            return
        }
        let path = URL(string: url)?.path.lowercased() ?? ""
        guard let role = [Role.watch, .publish].first(where: { path.hasSuffix("/\($0.rawValue)") }) else { return nil }
        (self.role, self.url) = (role, url)
    }

    /// Whether `url` is a WHEP or WHIP endpoint by its name alone.
    package static func isEndpoint(_ url: String) -> Bool { WebRTCEndpoint(url) != nil }

    /// The session's own URL from a POST's `Location` (often relative), against the
    /// endpoint: an absolute `http` or `https` URL, or nil.
    package func sessionURL(location: String) -> String? {
        guard !location.isEmpty, !location.contains(where: { $0.isNewline }),
              let resolved = URL(string: location, relativeTo: URL(string: url))?.absoluteURL.absoluteString,
              let scheme = URL(string: resolved)?.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return resolved
    }
}
