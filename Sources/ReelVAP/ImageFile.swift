import ReelCore
import ReelFFmpeg

/// Pictures read from image files (PNG, JPEG, WebP… whatever libavformat opens).
public enum ImageFile {
    /// The first picture of `path` as premultiplied RGBA.
    public static func premultipliedRGBA(path: String) throws -> PixelBuffer {
        let demuxer = try Demuxer(url: path)
        guard let index = demuxer.bestStream(of: .video) else { throw DecodeError(.noSuchStream(.video)) }
        let decoder = try Decoder(demuxer: demuxer, streamIndex: index, options: DecoderOptions(threadCount: 1))
        var picture: PixelBuffer?
        let converter = PictureConverter()
        func keep(_ decoded: DecodedFrame) throws {
            guard picture == nil, case .video(let frame) = decoded else { return }
            picture = try copy(converter.convert(frame, to: .rgba, quality: .accurate))
        }
        while picture == nil, let packet = try demuxer.readPacket() {
            if packet.streamIndex == index { try decoder.decode(packet, keep) }
        }
        if picture == nil { try decoder.drain(keep) }
        guard let picture else { throw DecodeError(.other, detail: "\(path) holds no picture") }
        PremultipliedAlpha.premultiply(picture)
        return picture
    }

    /// An RGBA frame copied into a buffer of its own (a converter's output lives only
    /// until its next call).
    static func copy(_ rgba: VideoFrame) throws -> PixelBuffer {
        let copy = try PixelBuffer(format: .rgba, width: rgba.width, height: rgba.height)
        for row in 0..<rgba.height {
            copy.planes[0].row(row).update(from: rgba.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self) + row * rgba.planes[0].bytesPerRow,
                                           count: 4 * rgba.width)
        }
        return copy
    }
}
