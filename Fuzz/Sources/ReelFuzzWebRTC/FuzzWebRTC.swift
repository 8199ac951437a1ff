import Foundation
@testable import ReelCore

/// libFuzzer's entry: what a WHEP or WHIP server sends, and what Reel writes from it. The
/// first byte picks the reader, the rest is its input:
/// - 0: a session description (an answer): within its caps; each section's codecs valid;
///   the media it says are sent are sections it has, not rejected; candidates added to it
///   land in their sections and it reads back with the same sections;
/// - 1: a `Location` (and an endpoint URL before a line break): a session URL has no line
///   break and is absolute;
/// - 2: a candidate line from libnice: the trickle fragment and the offer carry it on one
///   line of their own, or leave it out.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebRTC(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    switch data[0] % 3 {
    case 0: description(text)
    case 1: location(text)
    default: candidate(text)
    }
    return 0
}

private func description(_ text: String) {
    guard let parsed = try? WebRTCDescription(parsing: text) else { return }
    if parsed.media.count > WebRTCDescription.maximumMedia { fatalError("\(parsed.media.count) sections read") }
    for section in parsed.media {
        if !(0...65535).contains(section.port) { fatalError("port \(section.port)") }
        if section.codecs.contains(where: { !(0...127).contains($0.payloadType) || $0.clockRate <= 0 }) { fatalError("codecs \(section.codecs)") }
    }
    if parsed.sentMedia.contains(where: { $0.port == 0 || !$0.direction.sends }) { fatalError("a rejected or receiving section said to be sent") }
    let candidate = "candidate:1 1 UDP 2015363327 192.0.2.2 50893 typ host"
    let added = WebRTCDescription.adding(candidates: parsed.media.indices.map { ($0, candidate) }, to: text, gatheringDone: true)
    guard let again = try? WebRTCDescription(parsing: added) else {
        // Adding lines may take a description past the size cap, and only that.
        if added.utf8.count <= WebRTCDescription.maximumBytes { fatalError("the description with candidates does not read back: \(added.debugDescription)") }
        return
    }
    if again.media.map(\.kind) != parsed.media.map(\.kind) || again.media.map(\.mid) != parsed.media.map(\.mid) { fatalError("sections changed by candidates") }
    for (before, after) in zip(parsed.media, again.media) where after.candidates != before.candidates + [candidate] {
        fatalError("candidates \(after.candidates) after adding to \(before.candidates)")
    }
}

private func location(_ text: String) {
    let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let endpointURL = lines.count > 1 ? "whep+http://" + lines[0] : "whep+http://127.0.0.1:8889/cam/whep"
    guard let endpoint = WebRTCEndpoint(endpointURL) else { return }
    guard let session = endpoint.sessionURL(location: String(lines.last ?? "")) else { return }
    if session.contains(where: \.isNewline) { fatalError("a session URL with a line break: \(session.debugDescription)") }
    if URL(string: session)?.scheme == nil { fatalError("a session URL that is not absolute: \(session.debugDescription)") }
}

private func candidate(_ text: String) {
    let offer = """
    v=0\r
    s=-\r
    m=video 9 UDP/TLS/RTP/SAVPF 96\r
    a=ice-ufrag:u\r
    a=ice-pwd:p\r
    a=mid:video0\r

    """
    guard let parsed = try? WebRTCDescription(parsing: offer) else { fatalError("the fixed offer does not read") }
    let newline = text.contains(where: \.isNewline)
    let fragment = TrickleFragment.body(offer: parsed, candidates: [(0, text)], gatheringDone: false)
    if newline != (fragment == nil) { fatalError("a candidate \(newline ? "with" : "without") a line break: fragment \(fragment.debugDescription)") }
    let full = WebRTCDescription.adding(candidates: [(0, text)], to: offer, gatheringDone: false)
    let lines = full.components(separatedBy: "\r\n").filter { $0.utf8.starts(with: "a=candidate:".utf8) }
    if newline ? !lines.isEmpty : lines.count != 1 { fatalError("the offer carries \(lines.count) candidate lines for \(text.debugDescription)") }
}
