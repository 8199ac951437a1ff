/// What a probe learns about an input: its container, chapters and streams.
///
/// Encoded as JSON by `reel probe --json` with the keys documented in
/// `docs/probe-json.md`; the keys are ffprobe's where the two describe the same thing,
/// but values are typed (numbers are numbers, flags are booleans).
public struct MediaInfo: Sendable, Codable, Equatable {
    /// The container.
    public var format: FormatDescription
    /// The chapters, in order.
    public var chapters: [Chapter]
    /// Every stream, in the input's order.
    public var streams: [StreamDescription]

    /// A description of an input, as a prober makes it.
    public init(format: FormatDescription, chapters: [Chapter], streams: [StreamDescription]) {
        self.format = format
        self.chapters = chapters
        self.streams = streams
    }

    /// The stream libavformat would pick first for `type` (the default one, else the first).
    public func preferredStream(of type: MediaType) -> StreamDescription? {
        let candidates = streams.filter { $0.type == type }
        return candidates.first { $0.disposition["default"] == true } ?? candidates.first
    }
}

/// The container as a whole.
public struct FormatDescription: Sendable, Codable, Equatable {
    /// The input's URL or path, as given.
    public var url: String
    /// libavformat's short names for the demuxer, e.g. `mov,mp4,m4a,3gp,3g2,mj2`.
    public var name: String
    /// libavformat's descriptive name of the demuxer (`QuickTime / MOV`).
    public var longName: String?
    /// Seconds; `nil` when the container does not say (a live stream).
    public var startTime: Double?
    /// Seconds; `nil` when unknown (a live stream).
    public var duration: Double?
    /// Bytes; `nil` for inputs without a known size.
    public var size: Int64?
    /// Bits per second over the whole input.
    public var bitRate: Int64?
    /// Streams in the input.
    public var streamCount: Int
    /// The container's metadata (title, encoder, creation time…).
    public var tags: [String: String]

    /// A description with the fields a prober reads.
    public init(url: String, name: String, longName: String?, startTime: Double?, duration: Double?,
                size: Int64?, bitRate: Int64?, streamCount: Int, tags: [String: String]) {
        self.url = url
        self.name = name
        self.longName = longName
        self.startTime = startTime
        self.duration = duration
        self.size = size
        self.bitRate = bitRate
        self.streamCount = streamCount
        self.tags = tags
    }

    enum CodingKeys: String, CodingKey {
        case url = "filename", name = "format_name", longName = "format_long_name", startTime = "start_time"
        case duration, size, bitRate = "bit_rate", streamCount = "nb_streams", tags
    }
}

/// A chapter: a titled span of the timeline.
public struct Chapter: Sendable, Codable, Equatable {
    /// The container's chapter identifier.
    public var id: Int64
    /// The unit of `start` and `end`, in seconds.
    public var timeBase: Rational
    /// The chapter's start, in `timeBase` units.
    public var start: Int64
    /// The chapter's end, in `timeBase` units.
    public var end: Int64
    /// The chapter's metadata (`title`…).
    public var tags: [String: String]

    /// A chapter as the container holds it.
    public init(id: Int64, timeBase: Rational, start: Int64, end: Int64, tags: [String: String]) {
        self.id = id
        self.timeBase = timeBase
        self.start = start
        self.end = end
        self.tags = tags
    }

    /// The start in seconds.
    public var startTime: Double { Double(start) * (timeBase.doubleValue ?? 0) }
    /// The end in seconds.
    public var endTime: Double { Double(end) * (timeBase.doubleValue ?? 0) }
    /// The chapter's title, when it has one.
    public var title: String? { tags["title"] }

    enum CodingKeys: String, CodingKey {
        case id, timeBase = "time_base", start, end, startTime = "start_time", endTime = "end_time", tags
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(timeBase, forKey: .timeBase)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
        try container.encode(startTime, forKey: .startTime)
        try container.encode(endTime, forKey: .endTime)
        try container.encode(tags, forKey: .tags)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try container.decode(Int64.self, forKey: .id),
                  timeBase: try container.decode(Rational.self, forKey: .timeBase),
                  start: try container.decode(Int64.self, forKey: .start),
                  end: try container.decode(Int64.self, forKey: .end),
                  tags: try container.decode([String: String].self, forKey: .tags))
    }
}
