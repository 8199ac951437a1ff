import CFFmpeg
import ReelCore

/// An HLS master playlist read by FFmpeg: its demuxer makes streams of every variant, each
/// tagged with its variant's `BANDWIDTH` (`variant_bitrate`), and downloads the segments of
/// every variant whose streams are not discarded.
extension Demuxer {
    /// The `variant_bitrate` of stream `index`, when it is one of an HLS master's variants.
    func variantBitrate(ofStream index: Int) -> Int? {
        guard let stream = stream(at: index), let entry = av_dict_get(stream.pointee.metadata, "variant_bitrate", nil, 0) else { return nil }
        return Int(String(cString: entry.pointee.value))
    }

    /// The stream of `type` of the variant with the highest bit rate (at most
    /// ``maximumVariantBitrate``; the lowest when none is), when two or more variants have
    /// one: FFmpeg's own choice falls on the first variant listed, often the lowest (mpv's
    /// `hls-bitrate` takes the highest by default too).
    func highestVariantStream(of type: MediaType) -> Int? {
        let candidates = (0..<Int(context.pointee.nb_streams)).compactMap { index -> (index: Int, bitrate: Int)? in
            guard stream(at: index)?.pointee.codecpar.pointee.codec_type == type.ffmpegType,
                  let bitrate = variantBitrate(ofStream: index) else { return nil }
            return (index, bitrate)
        }
        guard Set(candidates.map(\.bitrate)).count >= 2 else { return nil }
        let allowed = candidates.filter { $0.bitrate <= maximumVariantBitrate ?? .max }
        // The first listed of the highest allowed, or of the lowest.
        guard allowed.isEmpty else { return allowed.first { $0.bitrate == allowed.map(\.bitrate).max() }?.index }
        return candidates.first { $0.bitrate == candidates.map(\.bitrate).min() }?.index
    }

    /// Discards the streams of the variants none of `streams` belongs to, so that only the
    /// variant played is downloaded; a stream of no variant is left as it is.
    public func discardOtherVariants(keeping streams: [Int]) {
        let kept = Set(streams.compactMap(variantBitrate(ofStream:)))
        guard !kept.isEmpty else { return }
        discardAll(except: Set((0..<Int(context.pointee.nb_streams)).filter { variantBitrate(ofStream: $0).map(kept.contains) ?? true }))
    }

    /// Reads stream `index` again (after ``discardOtherVariants(keeping:)``): a track of
    /// another variant switched to.
    public func undiscard(_ index: Int) {
        stream(at: index)?.pointee.discard = AVDISCARD_DEFAULT
    }
}
