/// The body of a trickle-ICE `PATCH` to a WHEP or WHIP session (RFC 8840's SDP fragment,
/// `application/trickle-ice-sdpfrag`, in the form of RFC 9725 section 4.3.1's example): for
/// each media section with new candidates its `m=` line, `mid`, the offer's ICE credentials
/// and those candidates; `a=end-of-candidates` once gathering is over.
package enum TrickleFragment {
    /// The media type of the body.
    package static let contentType = "application/trickle-ice-sdpfrag"

    /// The fragment carrying `candidates` (each with its media section's index in `offer`,
    /// as `webrtcbin`'s `on-ice-candidate` gives it, and the `candidate:…` value), or nil
    /// when there is nothing to say, the offer has no ICE credentials, or a candidate names
    /// no section of it.
    package static func body(offer: WebRTCDescription, candidates: [(mediaIndex: Int, candidate: String)], gatheringDone: Bool) -> String? {
        guard let first = offer.media.first, let firstCredentials = offer.iceCredentials(of: first) else { return nil }
        guard candidates.allSatisfy({ offer.media.indices.contains($0.mediaIndex) && !$0.candidate.contains(where: \.isNewline) }) else { return nil }
        var lines: [String] = []
        for (index, section) in offer.media.enumerated() {
            let own = candidates.filter { $0.mediaIndex == index }.map(\.candidate)
            // The end is said in the first section: with BUNDLE every section shares its transport.
            let ends = gatheringDone && index == 0
            guard !own.isEmpty || ends else { continue }
            lines.append("m=\(section.kind) 9 \(section.transport) \(section.formats.joined(separator: " "))")
            if let mid = section.mid { lines.append("a=mid:\(mid)") }
            let credentials = offer.iceCredentials(of: section) ?? firstCredentials
            lines += ["a=ice-ufrag:\(credentials.ufrag)", "a=ice-pwd:\(credentials.password)"]
            lines += own.map { $0.hasPrefix("candidate:") ? "a=\($0)" : "a=candidate:\($0)" }
            if ends { lines.append("a=end-of-candidates") }
        }
        guard !lines.isEmpty else { return nil }
        return lines.map { $0 + "\r\n" }.joined()
    }
}
