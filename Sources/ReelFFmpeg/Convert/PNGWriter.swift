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
        let pngFormat = hasAlpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24
        let rgb = frame.pixelFormat == .rgba ? frame : try PictureConverter().convert(frame, to: hasAlpha ? .rgba : PixelFormat("rgb24"), quality: .accurate)
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG), var context = Optional(avcodec_alloc_context3(codec)), let encoder = context else {
            throw DecodeError(.other, detail: "no PNG encoder")
        }
        defer { avcodec_free_context(&context) }
        encoder.pointee.width = Int32(rgb.width)
        encoder.pointee.height = Int32(rgb.height)
        encoder.pointee.pix_fmt = pngFormat
        encoder.pointee.time_base = AVRational(num: 1, den: 25)
        var code = avcodec_open2(encoder, codec, nil)
        guard code >= 0 else { throw DecodeError(.openFailed, codec: "png", code: code, detail: ffmpegErrorText(code)) }
        var picture = av_frame_alloc()
        var packet = av_packet_alloc()
        defer { av_frame_free(&picture); av_packet_free(&packet) }
        picture!.pointee.width = Int32(rgb.width)
        picture!.pointee.height = Int32(rgb.height)
        picture!.pointee.format = pngFormat.rawValue
        picture!.pointee.data.0 = UnsafeMutablePointer(mutating: rgb.planes[0].baseAddress.assumingMemoryBound(to: UInt8.self))
        picture!.pointee.linesize.0 = Int32(rgb.planes[0].bytesPerRow)
        code = avcodec_send_frame(encoder, picture)
        if code >= 0 { code = avcodec_receive_packet(encoder, packet) }
        guard code >= 0, let packet else { throw DecodeError(.other, codec: "png", code: code, detail: ffmpegErrorText(code)) }
        let data = Data(bytes: packet.pointee.data, count: Int(packet.pointee.size))
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw InputError(.other, operation: .open, url: path, detail: "cannot write: \(error.localizedDescription)")
        }
    }
}
