import CFFmpeg
import ReelCore

/// MD5 of decoded frames in the byte layout `ffmpeg -f framemd5` hashes: video as
/// rawvideo (rows packed, plane after plane), audio as interleaved PCM.
public struct FrameMD5: ~Copyable {
    private let context: OpaquePointer
    private var scratch: UnsafeMutableRawBufferPointer

    /// A hasher; one can hash any number of frames, one after another.
    public init() {
        context = av_md5_alloc()
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 0, alignment: 64)
    }

    deinit {
        av_free(UnsafeMutableRawPointer(context))
        scratch.deallocate()
    }

    /// The MD5 of `frame`'s pixels, as 32 hex digits.
    public mutating func hash(_ frame: VideoFrame) -> String {
        av_md5_init(context)
        frame.forEachPackedRow { row in
            guard let base = row.baseAddress else { return }
            av_md5_update(context, base.assumingMemoryBound(to: UInt8.self), row.count)
        }
        return finish()
    }

    /// The MD5 of `frame`'s samples, interleaved, as 32 hex digits.
    public mutating func hash(_ frame: AudioFrame) -> String {
        av_md5_init(context)
        let byteCount = frame.interleavedByteCount
        if frame.sampleFormat.isPlanar && frame.channelCount > 1 {
            if scratch.count < byteCount {
                scratch.deallocate()
                scratch = .allocate(byteCount: byteCount, alignment: 64)
            }
            frame.copyInterleaved(into: scratch)
            av_md5_update(context, scratch.baseAddress!.assumingMemoryBound(to: UInt8.self), byteCount)
        } else {
            av_md5_update(context, frame.planes[0].assumingMemoryBound(to: UInt8.self), byteCount)
        }
        return finish()
    }

    /// The MD5 of `text`'s UTF-8 bytes, as 32 hex digits (an RTSP digest's hashes).
    public mutating func hash(_ text: String) -> String {
        Array(text.utf8).withUnsafeBytes { hash($0) }
    }

    /// The MD5 of `bytes` (a packet's, as `ffprobe -show_data_hash md5` gives it), as 32 hex digits.
    public mutating func hash(_ bytes: UnsafeRawBufferPointer) -> String {
        av_md5_init(context)
        if let start = bytes.baseAddress { av_md5_update(context, start.assumingMemoryBound(to: UInt8.self), bytes.count) }
        return finish()
    }

    private func finish() -> String {
        var digest = [UInt8](repeating: 0, count: 16)
        av_md5_final(context, &digest)
        return digest.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }
}
