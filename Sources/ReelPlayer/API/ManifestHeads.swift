import Foundation
import ReelCore
import ReelFFmpeg

/// What is read of a playlist or manifest before an engine is chosen: its first bytes
/// and, for an HLS master playlist with several variants, its first variant's, which say
/// whether the stream is live (``EnginePolicy/liveHLS(head:firstVariantHead:)``).
struct ManifestHeads: Sendable {
    var manifest: Data?
    var firstVariant: Data?

    /// The heads of `url` when it is a playlist or manifest (``EnginePolicy/needsHead(_:)``),
    /// each read as `options` say (their timeout, their TLS checks); none otherwise, or
    /// when it cannot be read.
    static func read(_ url: String, options: DemuxOptions) -> ManifestHeads {
        guard EnginePolicy.needsHead(url), let manifest = try? ResourceHead.read(url, limit: EnginePolicy.headLimit, options: options) else {
            return ManifestHeads()
        }
        let variant = EnginePolicy.firstVariantURL(in: manifest, of: url)
        return ManifestHeads(manifest: manifest, firstVariant: variant.flatMap { try? ResourceHead.read($0, limit: EnginePolicy.headLimit, options: options) })
    }
}
