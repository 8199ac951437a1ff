import CFFmpeg
import ReelCore

extension MediaInfo {
    /// Describes an opened input as ffprobe would (`-show_format -show_streams -show_chapters`).
    init(formatContext context: UnsafeMutablePointer<AVFormatContext>, url: String) {
        let format = context.pointee
        let size: Int64? = format.pb.map { avio_size($0) }.flatMap { $0 >= 0 ? $0 : nil }
        let formatDescription = FormatDescription(
            url: url,
            name: format.iformat.map { String(cString: $0.pointee.name) } ?? "unknown",
            longName: format.iformat.flatMap { $0.pointee.long_name.map { String(cString: $0) } },
            startTime: format.start_time == FFmpegCode.noPTS ? nil : Double(format.start_time) / Double(AV_TIME_BASE),
            duration: format.duration == FFmpegCode.noPTS ? nil : Double(format.duration) / Double(AV_TIME_BASE),
            size: size,
            bitRate: format.bit_rate > 0 ? format.bit_rate : nil,
            streamCount: Int(format.nb_streams),
            tags: dictionaryEntries(format.metadata))
        let chapters = (0..<Int(format.nb_chapters)).compactMap { index -> Chapter? in
            guard let chapter = format.chapters[index]?.pointee else { return nil }
            return Chapter(id: chapter.id, timeBase: Rational(chapter.time_base), start: chapter.start,
                           end: chapter.end, tags: dictionaryEntries(chapter.metadata))
        }
        let streams = (0..<Int(format.nb_streams)).map { StreamDescription(context: context, index: $0) }
        self.init(format: formatDescription, chapters: chapters, streams: streams)
    }
}

extension StreamDescription {
    init(context: UnsafeMutablePointer<AVFormatContext>, index: Int) {
        let stream = context.pointee.streams[index]!
        let parameters = stream.pointee.codecpar.pointee
        let timeBase = stream.pointee.time_base
        self.init(index: index, type: MediaType(parameters.codec_type),
                  codecName: String(cString: avcodec_get_name(parameters.codec_id)),
                  timeBase: Rational(timeBase))
        codecLongName = avcodec_descriptor_get(parameters.codec_id).flatMap { $0.pointee.long_name.map { String(cString: $0) } }
        if let name = avcodec_profile_name(parameters.codec_id, parameters.profile) {
            profile = String(cString: name)
        } else if parameters.profile != FF_PROFILE_UNKNOWN {
            profile = String(parameters.profile)
        }
        level = parameters.level == FF_LEVEL_UNKNOWN ? nil : Int(parameters.level)
        let seconds = { (ticks: Int64) -> Double? in
            ticks == FFmpegCode.noPTS ? nil : Double(ticks) * av_q2d(timeBase)
        }
        startTime = seconds(stream.pointee.start_time)
        duration = seconds(stream.pointee.duration)
        bitRate = parameters.bit_rate > 0 ? parameters.bit_rate : nil
        frameCount = stream.pointee.nb_frames > 0 ? stream.pointee.nb_frames : nil
        bitsPerRawSample = parameters.bits_per_raw_sample > 0 ? Int(parameters.bits_per_raw_sample) : nil
        language = dictionaryEntries(stream.pointee.metadata)["language"]
        tags = dictionaryEntries(stream.pointee.metadata)
        disposition = dispositionFlags(stream.pointee.disposition)

        switch type {
        case .video: describeVideo(context: context, stream: stream)
        case .audio: describeAudio(parameters)
        default: break
        }
    }

    private mutating func describeVideo(context: UnsafeMutablePointer<AVFormatContext>, stream: UnsafeMutablePointer<AVStream>) {
        let parameters = stream.pointee.codecpar.pointee
        width = Int(parameters.width)
        height = Int(parameters.height)
        let sar = av_guess_sample_aspect_ratio(context, stream, nil)
        if sar.num != 0 {
            sampleAspectRatio = AspectRatio(Rational(sar))
            var dar = AVRational()
            av_reduce(&dar.num, &dar.den, Int64(parameters.width) * Int64(sar.num), Int64(parameters.height) * Int64(sar.den), 1024 * 1024)
            displayAspectRatio = AspectRatio(Rational(dar))
        }
        if let name = av_get_pix_fmt_name(AVPixelFormat(parameters.format)) { pixelFormat = PixelFormat(String(cString: name)) }
        colorMatrix = av_color_space_name(parameters.color_space).flatMap { ColorMatrix(rawValue: String(cString: $0)) }
        colorRange = av_color_range_name(parameters.color_range).flatMap { ColorRange(rawValue: String(cString: $0)) }
        colorPrimaries = av_color_primaries_name(parameters.color_primaries).flatMap { ColorPrimaries(rawValue: String(cString: $0)) }
        colorTransfer = av_color_transfer_name(parameters.color_trc).flatMap { ColorTransfer(rawValue: String(cString: $0)) }
        fieldOrder = Self.fieldOrderName(parameters.field_order)
        realFrameRate = Rational(stream.pointee.r_frame_rate)
        averageFrameRate = Rational(stream.pointee.avg_frame_rate)

        var size = 0
        if let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 {
            let degrees = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
            displayMatrix = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { Array(UnsafeBufferPointer(start: $0, count: 9)) }
            if degrees.isFinite { rotation = degrees == 0 ? 0 : degrees }
        }
        if let data = av_stream_get_side_data(stream, AV_PKT_DATA_SPHERICAL, &size), size >= MemoryLayout<AVSphericalMapping>.size {
            let mapping = UnsafeRawPointer(data).load(as: AVSphericalMapping.self)
            let degrees = { (fixed: Int32) in Double(fixed) / 65536 }
            var description = SphericalMapping(
                projection: av_spherical_projection_name(mapping.projection).map { String(cString: $0) } ?? "unknown",
                yaw: degrees(mapping.yaw), pitch: degrees(mapping.pitch), roll: degrees(mapping.roll))
            if mapping.projection == AV_SPHERICAL_EQUIRECTANGULAR_TILE {
                description.bounds = [Int(mapping.bound_left), Int(mapping.bound_top), Int(mapping.bound_right), Int(mapping.bound_bottom)]
            } else if mapping.projection == AV_SPHERICAL_CUBEMAP {
                description.padding = Int(mapping.padding)
            }
            spherical = description
        }
        if let data = av_stream_get_side_data(stream, AV_PKT_DATA_STEREO3D, &size), size >= MemoryLayout<AVStereo3D>.size {
            let stereo = UnsafeRawPointer(data).load(as: AVStereo3D.self)
            stereo3D = StereoMode(type: av_stereo3d_type_name(UInt32(stereo.type.rawValue)).map { String(cString: $0) } ?? "unknown",
                                  inverted: stereo.flags & AV_STEREO3D_FLAG_INVERT != 0)
        }
    }

    private mutating func describeAudio(_ parameters: AVCodecParameters) {
        if let name = av_get_sample_fmt_name(AVSampleFormat(parameters.format)) {
            sampleFormat = SampleFormat(rawValue: String(cString: name))
        }
        sampleRate = Int(parameters.sample_rate)
        var layout = parameters.ch_layout
        channels = Int(layout.nb_channels)
        if layout.order != AV_CHANNEL_ORDER_UNSPEC { channelLayout = channelLayoutName(&layout) }
    }

    private static func fieldOrderName(_ order: AVFieldOrder) -> String? {
        switch order {
        case AV_FIELD_PROGRESSIVE: "progressive"
        case AV_FIELD_TT: "tt"
        case AV_FIELD_BB: "bb"
        case AV_FIELD_TB: "tb"
        case AV_FIELD_BT: "bt"
        default: nil
        }
    }
}

/// `stereo`, `5.1(side)`… as `av_channel_layout_describe` writes it.
func channelLayoutName(_ layout: UnsafePointer<AVChannelLayout>) -> String {
    var buffer = [CChar](repeating: 0, count: 128)
    return av_channel_layout_describe(layout, &buffer, buffer.count) >= 0 ? stringFromCBuffer(buffer) : "unknown"
}

/// Every flag FFmpeg knows by name, set or not (as ffprobe lists them).
func dispositionFlags(_ disposition: Int32) -> [String: Bool] {
    var flags: [String: Bool] = [:]
    for bit in 0..<31 {
        let flag = Int32(1) << Int32(bit)
        guard let name = av_disposition_to_string(flag) else { continue }
        flags[String(cString: name)] = disposition & flag != 0
    }
    return flags
}

func dictionaryEntries(_ dictionary: OpaquePointer?) -> [String: String] {
    var entries: [String: String] = [:]
    var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
    while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
        entries[String(cString: next.pointee.key)] = String(cString: next.pointee.value)
        entry = next
    }
    return entries
}
