import CFFmpeg
import ReelCore

/// A byte stream opened through FFmpeg's protocols (http and https with their redirects,
/// chunked bodies and proxies; tcp…) and read as its bytes arrive: for inputs whose framing
/// is Reel's own, such as the RTP seed's HTTP progressive download. One thread reads;
/// ``cancel()`` may come from any.
package final class ProtocolByteStream: @unchecked Sendable {
    package let url: String
    private let interrupt: InterruptController
    // Written by `init` and `deinit` only; `read` uses it from the one reading thread.
    private var context: UnsafeMutablePointer<AVIOContext>?

    /// Opens `url`, sending `headers` with an HTTP request; the open gives up after
    /// `timeout` seconds without progress (`nil`: never). Reads wait until bytes come or
    /// ``cancel()`` is called. A TLS server's certificate is verified as `tls` says (by
    /// default against the system's trusted authorities: FFmpeg alone does not verify).
    package init(url: String, headers: [(name: String, value: String)] = [], timeout: Double?, tls: DemuxOptions = DemuxOptions()) throws(InputError) {
        FFmpegLog.installIfNeeded()
        self.url = url
        interrupt = InterruptController(timeout: timeout)
        var callback = interrupt.callback
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        for (key, value) in tls.tlsOptions { av_dict_set(&options, key, value, 0) }
        if !headers.isEmpty {
            av_dict_set(&options, "headers", headers.map { "\($0.name): \($0.value)\r\n" }.joined(), 0)
        }
        FFmpegLog.clearLastError()
        var opened: UnsafeMutablePointer<AVIOContext>?
        let code = interrupt.guarding { avio_open2(&opened, url, AVIO_FLAG_READ, &callback, &options) }
        guard code >= 0, let opened else { throw Demuxer.error(code, operation: .open, url: url, interrupt: interrupt) }
        context = opened
    }

    /// The bytes that have arrived, up to `limit`, after waiting for at least one; `nil`
    /// at the end of the stream or once cancelled.
    package func read(upTo limit: Int = 64 << 10) throws(InputError) -> [UInt8]? {
        guard let context, !interrupt.isCancelled else { return nil }
        var bytes = [UInt8](repeating: 0, count: max(limit, 1))
        let count = bytes.withUnsafeMutableBufferPointer { avio_read_partial(context, $0.baseAddress, Int32($0.count)) }
        if count > 0 { return Array(bytes[..<Int(count)]) }
        if count == 0 || count == FFmpegCode.endOfFile || interrupt.isCancelled { return nil }
        throw Demuxer.error(count, operation: .read, url: url, interrupt: interrupt)
    }

    /// Makes a waiting ``read(upTo:)`` return `nil` at FFmpeg's next poll (within 0.1 s).
    package func cancel() { interrupt.cancel() }

    deinit { avio_closep(&context) }
}
