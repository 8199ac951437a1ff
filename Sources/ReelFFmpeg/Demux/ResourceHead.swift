import CFFmpeg
import Foundation
import ReelCore

/// The first bytes of a file or URL, read through FFmpeg's protocols (file, http, https…):
/// what an engine choice reads of a manifest before anything is opened to play.
public enum ResourceHead {
    /// Up to `limit` bytes from the start of `url`, within `options.timeout` seconds per
    /// read, a TLS server's certificate checked as `options` say.
    public static func read(_ url: String, limit: Int, options: DemuxOptions = DemuxOptions()) throws(InputError) -> Data {
        FFmpegLog.installIfNeeded()
        let interrupt = InterruptController(timeout: options.timeout)
        var callback = interrupt.callback
        var context: UnsafeMutablePointer<AVIOContext>?
        var protocolOptions: OpaquePointer?
        defer { av_dict_free(&protocolOptions) }
        for (key, value) in options.tlsOptions { av_dict_set(&protocolOptions, key, value, 0) }
        FFmpegLog.clearLastError()
        let opened = interrupt.guarding { avio_open2(&context, url, AVIO_FLAG_READ, &callback, &protocolOptions) }
        guard opened >= 0, let context else { throw Demuxer.error(opened, operation: .open, url: url, interrupt: interrupt) }
        defer { var closing: UnsafeMutablePointer<AVIOContext>? = context; avio_closep(&closing) }
        var data = Data(count: max(limit, 0))
        var filled = 0
        while filled < limit {
            let count = data.withUnsafeMutableBytes { buffer in
                interrupt.guarding { avio_read(context, buffer.baseAddress!.advanced(by: filled).assumingMemoryBound(to: UInt8.self), Int32(limit - filled)) }
            }
            if count <= 0 { break }
            filled += Int(count)
        }
        return data.prefix(filled)
    }
}
