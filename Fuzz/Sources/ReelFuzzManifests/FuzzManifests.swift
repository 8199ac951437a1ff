import Foundation
@testable import ReelCore

/// libFuzzer's entry: what an HTTP server sends as a manifest. The input is a playlist or
/// MPD's text; after a line `#--` (when there is one), the first variant's media playlist.
/// - a live HLS media playlist: as many durations as segment names, each name a bare file
///   name, every duration and the next reload's wait finite and not negative;
/// - the engine's decision and the variants it reads (HLS `#EXT-X-STREAM-INF`, DASH
///   `<Representation>`): GStreamer only for a DASH manifest or a master of two variants
///   or more, a height cap one of the variants' rates, an attribute list's names trimmed;
/// - the first variant's URL, resolved against a network and a local address.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifests(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parts = text.components(separatedBy: "\n#--\n")
    let (head, variant) = (parts[0], parts.count > 1 ? parts[1] : nil)
    mediaPlaylist(head)
    if let variant { mediaPlaylist(variant) }
    decision(head, variant: variant)
    attributes(head)
    return 0
}

private func mediaPlaylist(_ text: String) {
    guard let playlist = LiveHLSPlaylist(text) else { return }
    if playlist.segmentNames.count != playlist.segmentDurations.count { fatalError("\(playlist.segmentNames.count) names, \(playlist.segmentDurations.count) durations") }
    if playlist.segmentDurations.contains(where: { !$0.isFinite || $0 < 0 }) { fatalError("durations \(playlist.segmentDurations)") }
    if playlist.segmentNames.contains(where: { $0.contains("/") || $0.contains("?") }) { fatalError("names \(playlist.segmentNames)") }
    for waited in [false, true] {
        if let wait = playlist.reloadDuration(afterWaiting: waited), !wait.isFinite || wait < 0 { fatalError("a reload after \(wait) s") }
    }
    _ = playlist.hasNewSegment(besides: Set(playlist.segmentNames.dropLast()))
}

private func decision(_ head: String, variant: String?) {
    let (headData, variantData) = (Data(head.utf8), variant.map { Data($0.utf8) })
    for url in ["https://cdn.example/live/master.m3u8?token=1", "/media/master.m3u8", "https://cdn.example/manifest.mpd"] {
        let decision = EnginePolicy.decide(url, head: headData, firstVariantHead: variantData)
        if decision.reason.isEmpty { fatalError("a decision without a reason") }
        let variants = EnginePolicy.variants(head)
        if decision.engine == .gstreamer && !(EnginePolicy.isDASH(head) || EnginePolicy.hlsVariants(head).count >= 2) {
            fatalError("GStreamer for neither a DASH manifest nor a master of two variants: \(decision)")
        }
        for height in [0, 480, 1080] {
            if let cap = EnginePolicy.bitrateCap(forHeight: height, variants: variants), !variants.contains(where: { $0.bandwidth == cap }) {
                fatalError("a cap of \(cap) that is no variant's rate")
            }
        }
        if let first = EnginePolicy.firstVariantURL(in: headData, of: url), first.isEmpty { fatalError("an empty first variant URL") }
        _ = EnginePolicy.liveHLS(head: headData, firstVariantHead: variantData)
    }
}

private func attributes(_ text: String) {
    for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("#EXT") {
        let list = line.drop { $0 != ":" }.dropFirst()
        for name in EnginePolicy.attributeList(list).keys where name != name.trimmingCharacters(in: .whitespaces) {
            fatalError("an attribute name with spaces around it: \(name.debugDescription)")
        }
    }
}
