import ReelCore
import ReelFFmpeg

/// Decodes one stream of an input from start to end: the loop `reel decode` and its
/// checksums share.
enum StreamDecoding {
    /// The index of the first stream of `type` (`-map 0:v:0` / `-map 0:a:0`).
    static func firstStream(of type: MediaType, in demuxer: Demuxer) throws -> Int {
        guard let index = demuxer.info.streams.first(where: { $0.type == type })?.index else {
            throw DecodeError(.noSuchStream(type))
        }
        return index
    }

    /// Decodes every packet of stream `index`, then drains the decoder. `onPacket` sees
    /// each packet before it is decoded, and `nil` before the drain.
    ///
    /// - Returns: the decoder, for its counters.
    /// - Throws: `DecodeError` when not a single frame could be decoded.
    @discardableResult
    static func decodeAll(_ demuxer: Demuxer, streamIndex index: Int, options: DecoderOptions,
                          onPacket: (Packet?) -> Void = { _ in }, onFrame: (DecodedFrame) -> Void) throws -> Decoder {
        let decoder = try Decoder(demuxer: demuxer, streamIndex: index, options: options)
        var frames = 0
        let count = { (frame: DecodedFrame) in
            frames += 1
            onFrame(frame)
        }
        while let packet = try demuxer.readPacket() {
            guard packet.streamIndex == index else { continue }
            onPacket(packet)
            try decoder.decode(packet, count)
        }
        onPacket(nil)
        try decoder.drain(count)
        if frames == 0 {
            throw DecodeError(.invalidData, codec: decoder.codecName, detail: decoder.lastDamage ?? "no frame could be decoded")
        }
        return decoder
    }
}
