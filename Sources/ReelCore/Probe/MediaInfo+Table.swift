extension MediaInfo {
    /// A readable report, one section for the container and one per stream.
    public var tableDescription: String {
        var lines: [String] = []
        func add(_ label: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            lines.append("  " + label + String(repeating: " ", count: max(1, 18 - label.count)) + value)
        }
        func seconds(_ value: Double?) -> String? { value.map { "\(MediaTime.formatSeconds($0)) s" } }

        lines.append("Input: \(format.url)")
        add("container", format.longName.map { "\(format.name) (\($0))" } ?? format.name)
        add("duration", seconds(format.duration))
        add("start", seconds(format.startTime))
        add("bit rate", format.bitRate.map { Self.formatBitRate($0) })
        add("size", format.size.map { "\($0) bytes" })
        for (key, value) in format.tags.sorted(by: { $0.key < $1.key }) { add(key, value) }
        if !chapters.isEmpty {
            lines.append("Chapters:")
            for chapter in chapters {
                add("#\(chapter.id)", "\(MediaTime.formatSeconds(chapter.startTime))–\(MediaTime.formatSeconds(chapter.endTime)) s  \(chapter.title ?? "")")
            }
        }
        for stream in streams {
            let flags = stream.disposition.filter(\.value).map(\.key).sorted()
            lines.append("Stream #\(stream.index): \(stream.type.rawValue)" + (flags.isEmpty ? "" : " [\(flags.joined(separator: ", "))]"))
            add("codec", [stream.codecName, stream.profile.map { "(\($0))" }, stream.codecLongName.map { "– \($0)" }]
                .compactMap { $0 }.joined(separator: " "))
            add("level", stream.level.map(String.init))
            if let width = stream.width, let height = stream.height {
                var size = "\(width)×\(height)"
                if let sar = stream.sampleAspectRatio { size += "  SAR \(sar)" }
                if let dar = stream.displayAspectRatio { size += "  DAR \(dar)" }
                add("picture", size)
            }
            add("pixel format", stream.pixelFormat?.rawValue)
            if stream.type == .video {
                let color = stream.color
                add("color", "matrix \(color.matrix.rawValue), range \(color.range.rawValue), primaries \(color.primaries.rawValue), transfer \(color.transfer.rawValue)")
            }
            add("field order", stream.fieldOrder)
            if let rate = stream.averageFrameRate, let fps = rate.doubleValue, rate.isKnown {
                add("frame rate", "\(Self.trimmed(fps)) fps (\(rate)); r_frame_rate \(stream.realFrameRate?.description ?? "?")")
            }
            add("rotation", stream.rotation.map { "\(Self.trimmed($0))°" })
            if let spherical = stream.spherical {
                add("spherical", "\(spherical.projection), yaw \(Self.trimmed(spherical.yaw))°, pitch \(Self.trimmed(spherical.pitch))°, roll \(Self.trimmed(spherical.roll))°")
            }
            if let stereo = stream.stereo3D { add("stereo", stereo.type + (stereo.inverted ? " (inverted)" : "")) }
            if let rate = stream.sampleRate {
                add("audio", "\(rate) Hz, \(stream.channelLayout ?? "\(stream.channels ?? 0) channels"), \(stream.sampleFormat?.rawValue ?? "?")")
            }
            add("language", stream.language)
            add("bit rate", stream.bitRate.map { Self.formatBitRate($0) })
            add("duration", seconds(stream.duration))
            add("frames", stream.frameCount.map(String.init))
            add("time base", stream.timeBase.description)
            for (key, value) in stream.tags.sorted(by: { $0.key < $1.key }) where key != "language" { add(key, value) }
        }
        return lines.joined(separator: "\n")
    }

    static func formatBitRate(_ bitsPerSecond: Int64) -> String {
        bitsPerSecond >= 1_000_000 ? "\(trimmed(Double(bitsPerSecond) / 1_000_000, digits: 2)) Mbit/s"
            : "\(trimmed(Double(bitsPerSecond) / 1000, digits: 1)) kbit/s"
    }

    static func trimmed(_ value: Double, digits: Int = 3) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    }
}
