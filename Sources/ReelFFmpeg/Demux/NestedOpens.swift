import CFFmpeg
import Foundation

/// Every input a demuxer opens inside its own (an HLS playlist's segments and reloads, its
/// variants' playlists, a DASH manifest's fragments) goes through here, on the demuxing
/// thread:
/// - it is given the protocol options the input was opened with that FFmpeg does not pass
///   on (`tls_verify`, `ca_file`): its HLS and DASH demuxers hand their nested opens the
///   headers, cookies and proxy only, so a stream's segments went unverified even when
///   its playlist was (an https playlist's segments on a server with a self-signed
///   certificate played with `-tls_verify 1`, Debian's FFmpeg 5.1);
/// - a live HLS playlist's reloads are timed to the server's publishing
///   (``LivePlaylistReloads``).
final class NestedOpens {
    typealias Open = @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
                                     UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    typealias Close = @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<AVIOContext>?) -> Int32

    let defaultOpen: Open
    let defaultClose: Close
    /// Options every nested open gets, unless the demuxer gave one its own value.
    private let options: [String: String]
    private let reloads: LivePlaylistReloads?

    /// Takes over `context`'s opening and closing of inputs (before it is opened), adding
    /// `options` to each and, with `reloadingPlaylists`, timing a live playlist's reloads;
    /// the context must not outlive this object.
    init?(installingOn context: UnsafeMutablePointer<AVFormatContext>, options: [String: String], reloadingPlaylists: Bool, interrupt: InterruptController) {
        guard let open = context.pointee.io_open, let close = context.pointee.io_close2 else { return nil }
        (defaultOpen, defaultClose, self.options) = (open, close, options)
        reloads = reloadingPlaylists ? LivePlaylistReloads(open: open, close: close, interrupt: interrupt) : nil
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        context.pointee.io_open = nestedOpen
        context.pointee.io_close2 = nestedClose
    }

    fileprivate func open(_ context: UnsafeMutablePointer<AVFormatContext>?, _ input: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
                          _ url: String, _ flags: Int32, _ given: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
        var own: OpaquePointer?
        defer { av_dict_free(&own) }
        return withUnsafeMutablePointer(to: &own) { ownPointer in
            let dictionary = given ?? ownPointer
            for (key, value) in options where av_dict_get(dictionary.pointee, key, nil, 0) == nil {
                av_dict_set(dictionary, key, value, 0)
            }
            guard let reloads else { return defaultOpen(context, input, url, flags, dictionary) }
            return reloads.open(context, input, url, flags, dictionary)
        }
    }

    fileprivate func close(_ context: UnsafeMutablePointer<AVFormatContext>?, _ io: UnsafeMutablePointer<AVIOContext>?) -> Int32 {
        guard let reloads else { return defaultClose(context, io) }
        return reloads.close(context, io)
    }
}

// FFmpeg calls these on the demuxing thread, so plain global functions.

private func nestedOpens(of context: UnsafeMutablePointer<AVFormatContext>?) -> NestedOpens? {
    guard let opaque = context?.pointee.opaque else { return nil }
    return Unmanaged<NestedOpens>.fromOpaque(opaque).takeUnretainedValue()
}

private func nestedOpen(_ context: UnsafeMutablePointer<AVFormatContext>?, _ input: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
                        _ url: UnsafePointer<CChar>?, _ flags: Int32, _ options: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    guard let opens = nestedOpens(of: context), let url else { return FFmpegCode.invalidData }
    return opens.open(context, input, String(cString: url), flags, options)
}

private func nestedClose(_ context: UnsafeMutablePointer<AVFormatContext>?, _ io: UnsafeMutablePointer<AVIOContext>?) -> Int32 {
    guard let opens = nestedOpens(of: context) else { return 0 }
    return opens.close(context, io)
}
