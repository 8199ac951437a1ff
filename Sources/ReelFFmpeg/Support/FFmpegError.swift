import CFFmpeg
import ReelCore

/// FFmpeg's text for an error code (`av_strerror`).
func ffmpegErrorText(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    av_strerror(code, &buffer, buffer.count)
    return stringFromCBuffer(buffer)
}

/// The text of a NUL-terminated buffer FFmpeg wrote into.
func stringFromCBuffer(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

enum FFmpegCode {
    static let again = reel_averror_eagain()
    static let endOfFile = reel_averror_eof()
    static let exit = reel_averror_exit()
    static let invalidData = reel_averror_invaliddata()
    static let noPTS = reel_av_nopts_value()

    static func posix(_ number: Int32) -> Int32 { reel_averror(number) }

    /// HTTP errors FFmpeg maps to codes of their own (`AVERROR_HTTP_*`).
    static func httpStatus(_ code: Int32) -> Int? {
        let tags: [(String, Int)] = [("\u{F8}400", 400), ("\u{F8}401", 401), ("\u{F8}403", 403),
                                     ("\u{F8}404", 404), ("\u{F8}4XX", 400), ("\u{F8}5XX", 500)]
        for (tag, status) in tags where code == httpTag(tag) { return status }
        return nil
    }

    /// `FFERRTAG(a, b, c, d)` negated, as libavutil/error.h defines the HTTP codes.
    private static func httpTag(_ tag: String) -> Int32 {
        let bytes = Array(tag.unicodeScalars.map { UInt32($0.value) & 0xFF })
        return -Int32(bitPattern: bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24)
    }
}

extension InputError.Reason {
    /// The reason behind an FFmpeg error code while opening or reading.
    init(ffmpegCode code: Int32, interrupt: InterruptController) {
        if code == FFmpegCode.exit, let why = interrupt.interruptionReason {
            self = why
            return
        }
        if let status = FFmpegCode.httpStatus(code) {
            self = .httpStatus(status)
            return
        }
        switch code {
        case FFmpegCode.posix(ENOENT): self = .notFound
        case FFmpegCode.posix(EACCES), FFmpegCode.posix(EPERM): self = .permissionDenied
        case FFmpegCode.posix(ECONNREFUSED): self = .connectionRefused
        case FFmpegCode.posix(ETIMEDOUT): self = .timedOut(seconds: interrupt.timeout ?? 0)
        case FFmpegCode.invalidData: self = .invalidData
        case FFmpegCode.endOfFile: self = .truncated
        case reel_averror_protocol_not_found(): self = .unsupportedProtocol
        default: self = .other
        }
    }
}
