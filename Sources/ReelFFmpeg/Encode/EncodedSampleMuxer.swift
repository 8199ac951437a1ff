import CFFmpeg
import Foundation
import ReelCore

/// Writes encoded samples (length-prefixed, with their `avcC`/`hvcC` record) into a
/// container with libavformat, MP4 by default, with optionally one audio stream of an
/// input: copied when the container takes its codec, else re-encoded to AAC.
///
/// Not `Sendable`: use it from one thread at a time, as FFmpeg's contexts require.
public final class EncodedSampleMuxer {
    private let path: String
    /// Where the bytes go: a hidden name until ``finish(holdingOpen:)``, or the name itself for a
    /// fragmented recording.
    private let file: PartialFile
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private var videoStream: UnsafeMutablePointer<AVStream>?
    private var copied: CopiedStream?
    private var transcoded: TranscodedAudioStream?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var finished = false
    /// In a fragmented MP4, the bytes up to the end of the last fragment known to be on
    /// disk: after a failure the file is cut back to it, and plays up to there.
    private var wholeFragmentsLength: Int64?
    private let sampleTimeBase: AVRational
    /// The container's audio codecs: other audio is re-encoded to AAC before it goes in.
    public static let copyableAudioCodecs: Set<String> = ["aac", "mp3", "mp2", "ac3", "eac3", "alac", "opus", "flac"]
    /// Whether the audio stream is re-encoded to AAC rather than copied.
    public var reencodesAudio: Bool { transcoded != nil }

    /// - Parameters:
    ///   - timescale: ticks per second of the samples' timestamps.
    ///   - audio: an audio stream of `demuxer` whose packets ``write(audio:)`` takes.
    ///   - fragmented: write the file under its name from the start, an MP4 or MOV in
    ///     fragments (one per keyframe), so that it plays up to its last fragment however
    ///     writing ends (a full disk, a crash): what a recording needs. Otherwise the file
    ///     is written under a hidden name and appears, whole, at ``finish(holdingOpen:)``.
    ///   - container: FFmpeg's name of the muxer (`flv`, `mpegts`); by `path`'s extension
    ///     when nil. A URL (`rtmp://…`) is a live stream: each packet is sent as it is written.
    public init(path: String, container: String? = nil, format: VideoFormatDescription, timescale: Int32, frameRate: Rational?,
                audio audioStreamIndex: Int? = nil, of demuxer: Demuxer? = nil, fragmented: Bool = false) throws {
        FFmpegLog.installIfNeeded()
        self.path = path
        file = fragmented ? PartialFile(inPlace: path) : PartialFile(path)
        sampleTimeBase = AVRational(num: 1, den: timescale)
        var context: UnsafeMutablePointer<AVFormatContext>?
        var code = avformat_alloc_output_context2(&context, nil, container, path)
        guard code >= 0, let context else { throw OutputError(path, "no container for this file name (\(ffmpegErrorText(code)))") }
        self.context = context
        if path.contains("://") { context.pointee.flush_packets = 1 }
        guard let stream = avformat_new_stream(context, nil), let parameters = stream.pointee.codecpar else { throw OutputError(path, "out of memory") }
        videoStream = stream
        parameters.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        parameters.pointee.codec_id = format.codec == .h264 ? AV_CODEC_ID_H264 : AV_CODEC_ID_HEVC
        // 'hvc1' (little-endian fourcc): parameter sets only in the record, the tag Apple's players require.
        if format.codec == .h265 { parameters.pointee.codec_tag = 0x3163_7668 }
        parameters.pointee.width = Int32(format.width)
        parameters.pointee.height = Int32(format.height)
        let record = format.configurationRecord
        guard let extradata = av_mallocz(record.count + Int(AV_INPUT_BUFFER_PADDING_SIZE))?.assumingMemoryBound(to: UInt8.self) else {
            throw OutputError(path, "out of memory")
        }
        extradata.update(from: record, count: record.count)
        parameters.pointee.extradata = extradata
        parameters.pointee.extradata_size = Int32(record.count)
        stream.pointee.time_base = sampleTimeBase
        if let frameRate, frameRate.isKnown { stream.pointee.avg_frame_rate = AVRational(num: Int32(frameRate.numerator), den: Int32(frameRate.denominator)) }
        if let index = audioStreamIndex, let demuxer, let stream = demuxer.info.streams.first(where: { $0.index == index }) {
            if Self.copyableAudioCodecs.contains(stream.codecName) {
                copied = try CopiedStream(copying: index, of: demuxer, into: context)
            } else {
                transcoded = try TranscodedAudioStream(transcoding: index, of: demuxer, into: context)
            }
        }
        if context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            code = avio_open(&context.pointee.pb, file.writingPath, AVIO_FLAG_WRITE)
            guard code >= 0 else { throw OutputError(path, ffmpegErrorText(code)) }
        }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        let muxerName = String(cString: context.pointee.oformat.pointee.name)
        let fragmentedMP4 = fragmented && (muxerName.contains("mp4") || muxerName.contains("mov"))
        if fragmentedMP4 { av_dict_set(&options, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0) }
        // A video PES whose length is written ends with its last byte; without it (FFmpeg's
        // default) a receiver knows a picture is whole only when the next one starts.
        if muxerName == "mpegts" { av_dict_set(&options, "omit_video_pes_length", "0", 0) }
        code = avformat_write_header(context, &options)
        guard code >= 0 else { throw OutputError(path, "cannot write the header (\(FFmpegLog.lastError ?? ffmpegErrorText(code)))") }
        packet = av_packet_alloc()
        guard packet != nil else { throw OutputError(path, "out of memory") }
        if fragmentedMP4 { noteWholeFragments() }
    }

    /// Records how much of a fragmented file is on disk, once the muxer has written a
    /// fragment out (at the header, and when a keyframe starts the next fragment).
    private func noteWholeFragments() {
        guard let pb = context?.pointee.pb else { return }
        avio_flush(pb)
        if pb.pointee.error == 0 { wholeFragmentsLength = avio_seek(pb, 0, SEEK_CUR) }
    }

    deinit {
        if let context, !finished, context.pointee.pb != nil, context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            avio_closep(&context.pointee.pb)
            file.abandon(keepingFirst: wholeFragmentsLength)
        }
        av_packet_free(&packet)
        avformat_free_context(context)
    }

    /// Writes a video sample; its times are in ticks of the muxer's timescale.
    public func write(_ sample: EncodedSample, duration: Int64 = 0) throws {
        guard let context, let packet, let videoStream, !finished else { throw OutputError(path, "the file is finished") }
        let timescale = sampleTimeBase.den
        guard av_new_packet(packet, Int32(sample.data.count)) >= 0 else { throw OutputError(path, "out of memory") }
        defer { av_packet_unref(packet) }
        packet.pointee.data.update(from: sample.data, count: sample.data.count)
        packet.pointee.pts = sample.presentationTime.converted(to: timescale).value
        packet.pointee.dts = sample.decodeTime.converted(to: timescale).value
        packet.pointee.duration = duration
        if sample.isKeyframe { packet.pointee.flags |= AV_PKT_FLAG_KEY }
        packet.pointee.stream_index = videoStream.pointee.index
        av_packet_rescale_ts(packet, sampleTimeBase, videoStream.pointee.time_base)
        let code = av_interleaved_write_frame(context, packet)
        guard code >= 0 else { throw OutputError(path, ffmpegErrorText(code)) }
        if sample.isKeyframe && wholeFragmentsLength != nil { noteWholeFragments() }
    }

    /// Writes a packet of the audio stream (packets of other streams are ignored).
    public func write(audio packet: Packet) throws {
        guard let context, !finished else { return }
        try copied?.write(packet, to: context)
        try transcoded?.write(packet, to: context)
    }

    /// Writes what the muxer holds and the trailer (an MP4's index), and closes the file.
    /// Writes the trailer and closes the output; with `holdingOpen`, waits that many seconds
    /// between the two (an SRT receiver still holding the last packets for its latency drops
    /// them when the sender closes).
    public func finish(holdingOpen: Double = 0) throws {
        guard !finished, let context else { return }
        finished = true
        let writesFile = context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0
        do {
            try transcoded?.finish(into: context)
        } catch {
            if writesFile { avio_closep(&context.pointee.pb); file.abandon(keepingFirst: wholeFragmentsLength) }
            throw error
        }
        let code = av_write_trailer(context)
        if holdingOpen > 0 { usleep(UInt32(min(holdingOpen, 10) * 1_000_000)) }
        let closed = writesFile ? avio_closep(&context.pointee.pb) : 0
        guard code >= 0, closed >= 0 else {
            if writesFile { file.abandon(keepingFirst: wholeFragmentsLength) }
            throw OutputError(path, ffmpegErrorText(code < 0 ? code : closed))
        }
        if writesFile { try file.commit() }
    }
}

@available(*, unavailable, message: "use it from one thread at a time")
extension EncodedSampleMuxer: Sendable {}
