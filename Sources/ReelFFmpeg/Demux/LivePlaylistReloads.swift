import CFFmpeg
import Foundation
import ReelCore

/// Reloads of a live HLS playlist timed to the server's publishing rather than to chance.
///
/// FFmpeg's HLS demuxer reloads a live playlist one newest-segment duration after its last
/// load (then every half target duration while nothing is new), so each segment waited
/// for its fetch anywhere between nothing and a whole segment, depending on when the
/// player happened to open. Through the demuxer's `io_open` (``NestedOpens``), a reload that finds nothing
/// the demuxer has not opened yet waits here, polling every 50 ms, until the next segment
/// is listed (or for one and a half target durations); the text it hands over has its
/// newest segment's duration shortened (``LiveHLSPlaylist/reloadDuration(afterWaiting:)``),
/// so the demuxer's next reload comes before the next segment is due and waits for it too.
/// Within two or three segments of the start each is fetched within a poll (50 ms) of its
/// publication.
///
/// A URL opened a second time is taken for a playlist reload once its text says so; one
/// that is not (a segment retried), or that redirects (its relative segment URIs would be
/// resolved against the wrong place), is opened as FFmpeg would from then on. Needs the HLS
/// demuxer's `http_persistent` off: a kept-alive playlist connection would bypass `io_open`.
final class LivePlaylistReloads {
    /// The demuxer's option that would keep the playlist's connection outside `io_open`.
    static let formatOptions = ["http_persistent": "0"]
    static let pollInterval = 0.05
    /// A playlist longer than this is refused (a 4 MiB playlist lists ~40,000 segments).
    static let sizeLimit = 4 << 20

    private let defaultOpen: NestedOpens.Open
    private let defaultClose: NestedOpens.Close
    private let interrupt: InterruptController
    private var openedURLs: Set<String> = []
    private var openedNames: Set<String> = []
    /// URLs opened again that are no playlist to wait on: opened as FFmpeg would.
    private var passedThrough: Set<String> = []
    /// The in-memory inputs handed to the demuxer, closed here.
    private var served: Set<UnsafeMutableRawPointer> = []

    /// Reloads through the demuxer's own `open` and `close`.
    init(open: @escaping NestedOpens.Open, close: @escaping NestedOpens.Close, interrupt: InterruptController) {
        defaultOpen = open
        defaultClose = close
        self.interrupt = interrupt
    }

    func open(_ context: UnsafeMutablePointer<AVFormatContext>?, _ input: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
                          _ url: String, _ flags: Int32, _ options: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
        let reopened = openedURLs.contains(url)
        openedURLs.insert(url)
        openedNames.insert(LiveHLSPlaylist.name(ofURI: url))
        let byteRange = options.map { av_dict_get($0.pointee, "offset", nil, 0) != nil } ?? false
        guard reopened, !byteRange, flags & AVIO_FLAG_WRITE == 0, !passedThrough.contains(url), let input else {
            return defaultOpen(context, input, url, flags, options)
        }
        return reload(context, input, url, flags, options)
    }

    /// Hands the demuxer the playlist at `url` once it lists a segment the demuxer has not
    /// opened, it has ended, or the wait is over.
    private func reload(_ context: UnsafeMutablePointer<AVFormatContext>?, _ input: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>,
                        _ url: String, _ flags: Int32, _ options: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
        let started = DispatchTime.now().uptimeNanoseconds
        var polls = 0
        while true {
            let fetched = fetch(context, url, flags, options)
            guard fetched.code >= 0 else { return fetched.code }
            guard !fetched.redirected, let text = String(validating: fetched.bytes, as: UTF8.self), let playlist = LiveHLSPlaylist(text) else {
                passedThrough.insert(url)
                return defaultOpen(context, input, url, flags, options)
            }
            let waited = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            if playlist.hasEnded || playlist.hasNewSegment(besides: openedNames) || waited >= Self.longestWait(playlist) {
                guard !playlist.hasEnded, let duration = playlist.reloadDuration(afterWaiting: polls > 0) else { return serve(fetched.bytes, into: input) }
                return serve(Array(LiveHLSPlaylist.settingNewestSegmentDuration(of: text, to: duration).utf8), into: input)
            }
            polls += 1
            usleep(useconds_t(Self.pollInterval * 1e6))
            if interrupt.shouldInterrupt() { return FFmpegCode.exit }
        }
    }

    /// One and a half target durations (6 s when the playlist gives none), at least 1 s.
    private static func longestWait(_ playlist: LiveHLSPlaylist) -> Double {
        max(1, 1.5 * (playlist.targetDuration ?? 6))
    }

    /// The body at `url`, read through FFmpeg's own opening; whether the server redirected.
    private func fetch(_ context: UnsafeMutablePointer<AVFormatContext>?, _ url: String, _ flags: Int32,
                       _ options: UnsafeMutablePointer<OpaquePointer?>?) -> (code: Int32, bytes: [UInt8], redirected: Bool) {
        var optionsCopy: OpaquePointer?
        if let options { av_dict_copy(&optionsCopy, options.pointee, 0) }
        defer { av_dict_free(&optionsCopy) }
        var io: UnsafeMutablePointer<AVIOContext>?
        let code = defaultOpen(context, &io, url, flags, &optionsCopy)
        guard code >= 0, let io else { return (code < 0 ? code : FFmpegCode.invalidData, [], false) }
        defer { _ = defaultClose(context, io) }
        var location: UnsafeMutablePointer<UInt8>?
        var redirected = false
        if av_opt_get(io, "location", AV_OPT_SEARCH_CHILDREN, &location) >= 0, let location {
            redirected = String(cString: location) != url
            av_free(location)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBufferPointer { avio_read(io, $0.baseAddress, Int32($0.count)) }
            if count == FFmpegCode.endOfFile || count == 0 { break }
            if count < 0 { return (count, [], redirected) }
            bytes.append(contentsOf: chunk[..<Int(count)])
            if bytes.count > Self.sizeLimit { return (FFmpegCode.invalidData, [], redirected) }
        }
        return (0, bytes, redirected)
    }

    /// Hands `bytes` to the demuxer as an input read from memory.
    private func serve(_ bytes: [UInt8], into input: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>) -> Int32 {
        let bufferSize = 4096
        guard let buffer = av_malloc(bufferSize) else { return FFmpegCode.posix(ENOMEM) }
        let source = Unmanaged.passRetained(MemoryInput(bytes)).toOpaque()
        guard let io = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(bufferSize), 0, source, readMemoryInput, nil, nil) else {
            Unmanaged<MemoryInput>.fromOpaque(source).release()
            av_free(buffer)
            return FFmpegCode.posix(ENOMEM)
        }
        served.insert(UnsafeMutableRawPointer(io))
        input.pointee = io
        return 0
    }

    func close(_ context: UnsafeMutablePointer<AVFormatContext>?, _ io: UnsafeMutablePointer<AVIOContext>?) -> Int32 {
        guard let io, served.remove(UnsafeMutableRawPointer(io)) != nil else { return defaultClose(context, io) }
        if let source = io.pointee.opaque { Unmanaged<MemoryInput>.fromOpaque(source).release() }
        av_freep(&io.pointee.buffer)
        var freeing: UnsafeMutablePointer<AVIOContext>? = io
        avio_context_free(&freeing)
        return 0
    }
}

/// Bytes read from memory by an AVIOContext.
private final class MemoryInput {
    let bytes: [UInt8]
    var position = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

// FFmpeg calls this on the demuxing thread, so a plain global function.
private func readMemoryInput(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32) -> Int32 {
    guard let opaque, let buffer else { return FFmpegCode.invalidData }
    let input = Unmanaged<MemoryInput>.fromOpaque(opaque).takeUnretainedValue()
    let count = min(Int(size), input.bytes.count - input.position)
    guard count > 0 else { return FFmpegCode.endOfFile }
    input.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + input.position, count: count) }
    input.position += count
    return Int32(count)
}
