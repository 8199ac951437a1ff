import Foundation
@testable import ReelCore

/// libFuzzer's entry: what an RTSP server sends. The first byte picks the reader, the rest
/// is its input:
/// - 0: the bytes of a connection (responses, and RTP and RTCP interleaved with `$`),
///   given to the parser whole and again in chunks of the size the first byte says: both
///   ways give the same items and the same end (an error, or bytes left waiting), and each
///   item keeps within the parser's caps;
/// - 1: header values (`Transport`, `Session`, an `rtsp://` URL with credentials), one per line;
/// - 2: a DESCRIBE answer's SDP, resolved against a base URL;
/// - 3: `WWW-Authenticate` challenges, one per line, and the answer to the one chosen.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRTSP(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let selector = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let text = String(decoding: bytes, as: UTF8.self)
    switch selector % 4 {
    case 0: connection(bytes, chunk: Int(selector / 4) + 1)
    case 1: headers(text)
    case 2: presentation(text)
    default: challenges(text)
    }
    return 0
}

private struct Outcome: Equatable {
    var items: [RTSPConnectionItem] = []
    var failed = false
}

private func parse(_ bytes: [UInt8], chunk: Int) -> Outcome {
    var parser = RTSPConnectionParser()
    var outcome = Outcome()
    var offset = 0
    repeat {
        let end = min(offset + chunk, bytes.count)
        parser.append(bytes[offset..<end])
        offset = end
        do {
            while let item = try parser.next() { outcome.items.append(item) }
        } catch {
            outcome.failed = true
            return outcome
        }
    } while offset < bytes.count
    return outcome
}

private func connection(_ bytes: [UInt8], chunk: Int) {
    let whole = parse(bytes, chunk: max(bytes.count, 1))
    let chunked = parse(bytes, chunk: chunk)
    if whole != chunked { fatalError("chunks of \(chunk) gave \(chunked.items.count) items (failed: \(chunked.failed)), whole \(whole.items.count) (failed: \(whole.failed))") }
    var consumed = 0
    for item in whole.items {
        switch item {
        case .interleaved(_, let packet):
            consumed += 4 + packet.count
        case .response(let response):
            if !(100...999).contains(response.status) { fatalError("status \(response.status)") }
            if response.body.count > RTSPConnectionParser.maxBodyBytes { fatalError("a body of \(response.body.count) bytes") }
            // The status line, an empty line and the body at least.
            consumed += 9 + 2 + response.body.count
        }
    }
    if consumed > bytes.count { fatalError("items of \(consumed) bytes or more out of \(bytes.count)") }
}

private func headers(_ text: String) {
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        let transport = RTSPTransportHeader(line)
        if let channels = transport.channels, channels.rtp == 255 { fatalError("RTP on channel 255 leaves none for RTCP: \(line.debugDescription)") }
        if let session = RTSPSessionHeader(line) {
            if session.id.isEmpty || !(session.timeout >= 5) { fatalError("session \(session.id.debugDescription) timeout \(session.timeout)") }
        }
        if let address = RTSPAddress(line) {
            if address.host.isEmpty || !(1...65535).contains(address.port) { fatalError("address \(address.host):\(address.port)") }
            if !address.url.lowercased().hasPrefix("rtsp://") { fatalError("the URL without credentials \(address.url.debugDescription)") }
            // The credentials are out of the URL requests name (it goes in logs): nothing of
            // its authority is a user (a path may hold an @ of its own).
            let authority = address.url.dropFirst("rtsp://".count).prefix { $0 != "/" && $0 != "?" }
            if authority.contains("@") { fatalError("credentials stayed in \(address.url.debugDescription)") }
        }
    }
}

private func presentation(_ text: String) {
    for base in ["rtsp://camera.local:8554/stream", "rtsp://camera.local/stream/"] {
        guard let presentation = try? RTSPPresentation(sdp: text, base: base) else { continue }
        if presentation.media.isEmpty { fatalError("a presentation of no media") }
        for control in presentation.media.map(\.control) + [presentation.aggregateControl] {
            let lowered = control.lowercased()
            if !lowered.hasPrefix("rtsp://") && !lowered.hasPrefix("rtsps://") { fatalError("a control URL that is not absolute: \(control.debugDescription)") }
        }
        _ = presentation.isVideoOnly
    }
}

private func challenges(_ text: String) {
    let lines = text.split(separator: "\n").map(String.init)
    guard let chosen = RTSPAuthentication(challenges: lines) else { return }
    // Digest is preferred to Basic whenever one it can answer was offered.
    if chosen.scheme == .basic, lines.contains(where: { RTSPAuthentication(challenges: [$0])?.scheme == .digest }) {
        fatalError("Basic chosen over an answerable Digest challenge")
    }
    let answer = chosen.authorization(method: "DESCRIBE", uri: "rtsp://camera.local/stream", user: "viewer", password: "secret",
                                      clientNonce: "0a4f113b", md5: { String($0.utf8.count) })
    if answer.contains("\r") || answer.contains("\n") { fatalError("a line break in the Authorization value: \(answer.debugDescription)") }
    // What the server said reads back the same out of the answer's quoted strings.
    if chosen.scheme == .digest {
        let read = RTSPAuthentication.parameterList(String(answer.dropFirst("Digest ".count)))
        for name in ["realm", "nonce", "opaque"] where read[name] != chosen.parameters[name] && !(name != "opaque" && chosen.parameters[name] == nil) {
            fatalError("\(name) \(chosen.parameters[name].debugDescription) read back as \(read[name].debugDescription) from \(answer.debugDescription)")
        }
    }
}
