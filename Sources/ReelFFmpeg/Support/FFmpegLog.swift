import CFFmpeg
import Foundation
import Logging

/// FFmpeg's log, routed to swift-log, with the last error-level line of each thread kept
/// so that a failure can say in FFmpeg's own words what went wrong ("moov atom not found").
public enum FFmpegLog {
    /// Routes FFmpeg's messages up to `level` to swift-log (label `reel.ffmpeg`).
    /// Errors are always captured, whatever the level, to explain failures.
    public static func install(level: Logger.Level = .warning) {
        forwardedLevel.withLock { forwarded in
            forwarded = ffmpegLevel(for: level)
            av_log_set_level(max(forwarded ?? AV_LOG_ERROR, AV_LOG_ERROR))
            reel_install_log_sink(ffmpegLogLineSink)
        }
    }

    /// Makes Reel's sink FFmpeg's log callback again if it was installed. FFmpeg has one
    /// callback per process, and a library loaded after it may set its own: GStreamer's
    /// libav plug-in does when it loads, and Reel reads FFmpeg's errors from its log (a
    /// truncated file is known only by its "partial file" line).
    public static func reclaimCallback() {
        forwardedLevel.withLock { forwarded in
            if forwarded != nil { reel_install_log_sink(ffmpegLogLineSink) }
        }
    }

    /// Installs the sink with warnings forwarded, unless the application chose already.
    /// Opening an input, a decoder, an encoder or an output calls this: failures depend on
    /// the captured errors, and FFmpeg would otherwise print to standard error.
    static func installIfNeeded() {
        if forwardedLevel.withLock({ $0 }) == nil { install() }
    }

    /// Forgets the error remembered for this thread, before an operation that may set one.
    static func clearLastError() { LastErrorSlot.set(nil) }

    /// The last error FFmpeg logged on this thread since ``clearLastError()``.
    static var lastError: String? { LastErrorSlot.get() }

    /// FFmpeg's words for a TLS server's certificate it refused on this thread (the input's
    /// or a segment's) since ``clearLastError()``: a later error (the HLS demuxer's "no
    /// streams" once every segment failed) does not hide it.
    static var lastCertificateFailure: String? { LastErrorSlot.certificateFailure() }

    /// Whether `line`, an error FFmpeg logged, says a certificate was refused: GnuTLS's
    /// (Debian's build) and OpenSSL's words.
    static func isCertificateFailure(_ line: String) -> Bool {
        line.hasPrefix("Peer certificate failed verification") || line.hasPrefix("The certificate's owner does not match hostname")
            || line.contains("certificate verify failed")
    }

    static let logger = Logger(label: "reel.ffmpeg")
    /// The most verbose FFmpeg level forwarded; `nil` until installed.
    static let forwardedLevel = LockedValue<Int32?>(nil)

    static func ffmpegLevel(for level: Logger.Level) -> Int32 {
        switch level {
        case .trace: AV_LOG_TRACE
        case .debug: AV_LOG_DEBUG
        case .info, .notice: AV_LOG_INFO
        case .warning: AV_LOG_WARNING
        case .error: AV_LOG_ERROR
        case .critical: AV_LOG_FATAL
        }
    }
}

/// Called by FFmpeg on any thread, so a plain global function (see DESIGN.md).
private func ffmpegLogLineSink(level: Int32, line: UnsafePointer<CChar>?) {
    guard let line else { return }
    let text = String(cString: line).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty else { return }
    if level <= AV_LOG_ERROR { LastErrorSlot.set(withoutContextPrefixes(text)) }
    guard level <= FFmpegLog.forwardedLevel.withLock({ $0 }) ?? AV_LOG_WARNING else { return }
    let message = Logger.Message(stringLiteral: text)
    switch level {
    case ...AV_LOG_FATAL: FFmpegLog.logger.critical(message)
    case ...AV_LOG_ERROR: FFmpegLog.logger.error(message)
    case ...AV_LOG_WARNING: FFmpegLog.logger.warning(message)
    case ...AV_LOG_INFO: FFmpegLog.logger.info(message)
    case ...AV_LOG_DEBUG: FFmpegLog.logger.debug(message)
    default: FFmpegLog.logger.trace(message)
    }
}

/// `[mov,mp4,m4a,3gp,3g2,mj2 @ 0x7f…] moov atom not found` → `moov atom not found`.
func withoutContextPrefixes(_ line: String) -> String {
    var text = Substring(line)
    while text.hasPrefix("["), let end = text.firstIndex(of: "]") {
        text = text[text.index(after: end)...].drop(while: { $0 == " " })
    }
    return text.isEmpty ? line : String(text)
}

/// One string per thread, so that concurrent opens do not see each other's errors.
private enum LastErrorSlot {
    final class Box { var text: String?; var certificateFailure: String? }

    static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in if let pointer { Unmanaged<Box>.fromOpaque(pointer).release() } }
        return key
    }()

    static func box() -> Box {
        if let raw = pthread_getspecific(key) { return Unmanaged<Box>.fromOpaque(raw).takeUnretainedValue() }
        let box = Box()
        pthread_setspecific(key, Unmanaged.passRetained(box).toOpaque())
        return box
    }

    static func get() -> String? { box().text }
    static func certificateFailure() -> String? { box().certificateFailure }

    /// Keeps `text` as the last error (nil forgets both it and a certificate failure).
    static func set(_ text: String?) {
        let box = box()
        box.text = text
        if text == nil { box.certificateFailure = nil } else if let text, FFmpegLog.isCertificateFailure(text) { box.certificateFailure = text }
    }
}
