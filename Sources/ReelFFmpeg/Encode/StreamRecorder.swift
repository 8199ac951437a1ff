import Glibc
import CFFmpeg
import ReelCore

/// Remuxes an input's packets into a file without decoding them, from the first video
/// keyframe on, with times from zero there: what `ffmpeg -i URL -c copy` records. The
/// container follows the file name (`.mkv`, `.mp4`, `.ts`…); an MP4 or MOV is written in
/// fragments, one per keyframe, under its name from the start, so a process killed while
/// recording leaves a file that plays up to its last fragment.
///
/// Not `Sendable`: use it from one thread at a time (a player's read thread).
package final class StreamRecorder {
    package let path: String
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private var streams: [CopiedStream] = []
    private let videoIndex: Int?
    /// Microseconds of the input's timeline at the file's zero; nil until the first keyframe.
    private var start: Int64?
    private var finished = false

    /// Opens `path` for streams `indexes` of `demuxer` (the video one first, if any).
    package init(path: String, copying indexes: [Int], of demuxer: Demuxer, videoIndex: Int?) throws(OutputError) {
        FFmpegLog.installIfNeeded()
        self.path = path
        self.videoIndex = videoIndex
        var context: UnsafeMutablePointer<AVFormatContext>?
        var code = avformat_alloc_output_context2(&context, nil, nil, path)
        guard code >= 0, let context else { throw OutputError(path, "no container for this file name (\(ffmpegErrorText(code)))") }
        self.context = context
        do {
            streams = try indexes.compactMap { try CopiedStream(copying: $0, of: demuxer, into: context) }
        } catch {
            throw error as? OutputError ?? OutputError(path, "\(error)")
        }
        guard !streams.isEmpty else { throw OutputError(path, "nothing to record") }
        if context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            code = avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE)
            guard code >= 0 else { throw OutputError(path, ffmpegErrorText(code)) }
        }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        let muxer = String(cString: context.pointee.oformat.pointee.name)
        if muxer.contains("mp4") || muxer.contains("mov") { av_dict_set(&options, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0) }
        FFmpegLog.clearLastError()
        code = avformat_write_header(context, &options)
        guard code >= 0 else { throw OutputError(path, "cannot write the header (\(FFmpegLog.lastError ?? ffmpegErrorText(code)))") }
        flushToDisk()
    }

    /// Hands what the muxer has written to the file, so that a process killed now leaves
    /// it on disk (an MP4's header and whole fragments; so much of a TS or MKV).
    private func flushToDisk() {
        if let pb = context?.pointee.pb { avio_flush(pb) }
    }

    /// Throws what opening `path` would: no container for its name, or a directory that
    /// cannot take it.
    package static func check(_ path: String) throws(OutputError) {
        guard av_guess_format(nil, path, nil) != nil else { throw OutputError(path, "no container for this file name (use .mkv, .mp4 or .ts)") }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        guard access(directory.isEmpty ? "/" : directory, W_OK) == 0 else { throw OutputError(path, String(cString: strerror(errno))) }
    }

    deinit {
        if let context, !finished, context.pointee.pb != nil, context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            avio_closep(&context.pointee.pb)
        }
        avformat_free_context(context)
    }

    /// Whether the first keyframe has been written.
    package var hasStarted: Bool { start != nil }

    /// Writes `packet` if it is of a recorded stream, from the first video keyframe on
    /// (the first packet, without video); earlier packets are left out.
    package func write(_ packet: Packet) throws(OutputError) {
        guard let context, !finished, streams.contains(where: { $0.inputIndex == packet.streamIndex }) else { return }
        if start == nil {
            guard videoIndex == nil || (packet.streamIndex == videoIndex && packet.isKeyframe),
                  let time = (packet.decodeTime ?? packet.presentationTime)?.seconds else { return }
            start = Int64((time * 1_000_000).rounded(.down))
        }
        guard let start else { return }
        // Sound from before the first picture is left out.
        if packet.streamIndex != videoIndex, let time = packet.presentationTime?.seconds, Int64(time * 1_000_000) < start { return }
        do {
            for stream in streams where stream.inputIndex == packet.streamIndex { try stream.write(packet, to: context, shift: start) }
        } catch {
            throw error as? OutputError ?? OutputError(path, "\(error)")
        }
        // A keyframe starts an MP4's next fragment: the one before it is whole.
        if packet.isKeyframe && (packet.streamIndex == videoIndex || videoIndex == nil) { flushToDisk() }
    }

    /// Writes what the muxer holds and the trailer, and closes the file.
    package func finish() throws(OutputError) {
        guard !finished, let context else { return }
        finished = true
        let code = av_write_trailer(context)
        let closed = context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 ? avio_closep(&context.pointee.pb) : 0
        guard code >= 0, closed >= 0 else { throw OutputError(path, ffmpegErrorText(code < 0 ? code : closed)) }
    }
}

@available(*, unavailable, message: "use it from one thread at a time")
extension StreamRecorder: Sendable {}
