/// One sample of a track: where its bytes are and when it is decoded and shown.
public struct MP4Sample: Sendable, Equatable {
    /// Byte offset in the file.
    public var offset: UInt64
    /// Bytes of the sample.
    public var size: UInt32
    /// Decode and presentation times in the track's timescale, shifted by the edit list's
    /// start as FFmpeg shifts them.
    public var decodeTime: Int64
    /// When the sample is shown (see ``decodeTime``).
    public var presentationTime: Int64
    /// A sync sample (`stss`): decoding can start here.
    public var isKeyframe: Bool
}

/// A track of an MP4/MOV file, read from its boxes by ``MP4Reader``.
public struct MP4Track: Sendable {
    /// The track's `tkhd` identifier.
    public var trackID: UInt32
    /// `vide`, `soun`…
    public var handler: String
    /// Units per second of the track's times (`mdhd`).
    public var timescale: UInt32
    /// The sample entry's type: `avc1`, `hvc1`, `hev1`, `mp4a`…
    public var sampleEntryType: String
    /// Picture size from a visual sample entry.
    public var width: Int?
    /// Picture height from a visual sample entry.
    public var height: Int?
    /// The decoder configuration record (`avcC` or `hvcC` body).
    public var codecConfiguration: [UInt8]?
    /// The presentation time the first edit starts at (`elst` media time), subtracted from
    /// every sample's times.
    public var editStart: Int64
    /// Every sample, in decode order.
    public var samples: [MP4Sample]
}
