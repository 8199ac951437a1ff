import CFFmpeg
import Foundation
import ReelCore

/// Writes pictures as PNG files with libavcodec's PNG encoder.
public enum PNGWriter {
    /// Writes `frame` (any pixel format; converted to RGB, or to RGBA when it has alpha,
    /// which PNG holds straight) to `path`.
    public static func write(_ frame: VideoFrame, to path: String) throws {
        let source = av_get_pix_fmt(frame.pixelFormat.rawValue)
        let hasAlpha = source != AV_PIX_FMT_NONE && (av_pix_fmt_desc_get(source)?.pointee.flags ?? 0) & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
        let rgb = frame.pixelFormat == .rgba ? frame : try PictureConverter().convert(frame, to: hasAlpha ? .rgba : PixelFormat("rgb24"), quality: .accurate)
        try StillImage.write(rgb, codec: AV_CODEC_ID_PNG, name: "png", format: hasAlpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24, to: path)
    }
}

/// Writes pictures as JPEG files with libavcodec's MJPEG encoder, full-range 4:4:4: small
/// pictures with sharp coloured edges (thumbnails) lose 20 dB to 4:2:0's halved chroma.
public enum JPEGWriter {
    /// Writes `frame` to `path` at `quality`, libavcodec's scale from 2 (best) to 31.
    public static func write(_ frame: VideoFrame, to path: String, quality: Int = 2) throws {
        var yuv = try PictureConverter().convert(frame, to: PixelFormat("yuvj444p"), quality: .accurate)
        yuv.color.range = .full
        try StillImage.write(yuv, codec: AV_CODEC_ID_MJPEG, name: "mjpeg", format: AV_PIX_FMT_YUVJ444P, to: path) { encoder in
            // FF_QP2LAMBDA: libavcodec's quality scale in its lambda units.
            encoder.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            encoder.pointee.global_quality = Int32(min(max(quality, 2), 31) * 118)
            encoder.pointee.color_range = AVCOL_RANGE_JPEG
        }
    }
}

/// One picture through an image encoder into a file.
enum StillImage {
    static func write(_ frame: VideoFrame, codec id: AVCodecID, name: String, format: AVPixelFormat, to path: String,
                      configure: (UnsafeMutablePointer<AVCodecContext>) -> Void = { _ in }) throws {
        guard let codec = avcodec_find_encoder(id), var context = Optional(avcodec_alloc_context3(codec)), let encoder = context else {
            throw DecodeError(.other, detail: "no \(name) encoder")
        }
        defer { avcodec_free_context(&context) }
        encoder.pointee.width = Int32(frame.width)
        encoder.pointee.height = Int32(frame.height)
        encoder.pointee.pix_fmt = format
        encoder.pointee.time_base = AVRational(num: 1, den: 25)
        configure(encoder)
        var code = avcodec_open2(encoder, codec, nil)
        guard code >= 0 else { throw DecodeError(.openFailed, codec: name, code: code, detail: ffmpegErrorText(code)) }
        var picture = av_frame_alloc()
        var packet = av_packet_alloc()
        defer { av_frame_free(&picture); av_packet_free(&packet) }
        guard let picture, let packet else { throw DecodeError(.other, detail: "out of memory") }
        picture.pointee.width = Int32(frame.width)
        picture.pointee.height = Int32(frame.height)
        picture.pointee.format = format.rawValue
        picture.pointee.quality = encoder.pointee.global_quality
        withUnsafeMutableBytes(of: &picture.pointee.data) { data in
            withUnsafeMutableBytes(of: &picture.pointee.linesize) { sizes in
                for (index, plane) in frame.planes.prefix(4).enumerated() {
                    data.storeBytes(of: UnsafeMutablePointer(mutating: plane.baseAddress.assumingMemoryBound(to: UInt8.self)),
                                    toByteOffset: index * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride, as: UnsafeMutablePointer<UInt8>?.self)
                    sizes.storeBytes(of: Int32(plane.bytesPerRow), toByteOffset: index * MemoryLayout<Int32>.stride, as: Int32.self)
                }
            }
        }
        code = avcodec_send_frame(encoder, picture)
        if code >= 0 { code = avcodec_receive_packet(encoder, packet) }
        guard code >= 0 else { throw DecodeError(.other, codec: name, code: code, detail: ffmpegErrorText(code)) }
        let data = Data(bytes: packet.pointee.data, count: Int(packet.pointee.size))
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw InputError(.other, operation: .open, url: path, detail: "cannot write: \(error.localizedDescription)")
        }
    }
}
