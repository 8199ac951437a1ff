/// What a decoder must know before the first sample of an encoded stream, as a
/// CMVideoFormatDescription: the codec, the size and the parameter sets.
public struct VideoFormatDescription: Sendable, Equatable {
    /// H.264 or H.265.
    public var codec: VideoCodec
    /// Coded width in pixels.
    public var width: Int
    /// Coded height in pixels.
    public var height: Int
    /// VPS (H.265), SPS and PPS NAL units, headers included, in that order.
    public var parameterSets: [[UInt8]]
    /// The `avcC` or `hvcC` record of those parameter sets (4-byte NAL lengths).
    public var configurationRecord: [UInt8]

    /// Builds the description from parameter set units, in any order.
    public init(codec: VideoCodec, width: Int, height: Int, parameterSets allUnits: [[UInt8]]) throws {
        self.codec = codec
        self.width = width
        self.height = height
        func units(ofType type: UInt8) -> [[UInt8]] { allUnits.filter { !$0.isEmpty && codec.nalType($0[0]) == type } }
        switch codec {
        case .h264:
            let sps = units(ofType: 7), pps = units(ofType: 8)
            parameterSets = sps + pps
            configurationRecord = try DecoderConfigurationRecord.avcC(sequenceParameterSets: sps, pictureParameterSets: pps)
        case .h265:
            let vps = units(ofType: 32), sps = units(ofType: 33), pps = units(ofType: 34)
            parameterSets = vps + sps + pps
            configurationRecord = try DecoderConfigurationRecord.hvcC(videoParameterSets: vps, sequenceParameterSets: sps, pictureParameterSets: pps)
        }
    }
}

/// One encoded picture, as a CMSampleBuffer out of VTCompressionSession: its NAL units each
/// after a 4-byte big-endian length, its timing and whether decoding can start here.
public struct EncodedSample: Sendable {
    /// The NAL units, each after a 4-byte big-endian length (the `avcC`/`hvcC` layout).
    public var data: [UInt8]
    /// Decoding can start here (an IDR picture).
    public var isKeyframe: Bool
    /// When the picture is shown.
    public var presentationTime: MediaTime
    /// When the picture is decoded; before its presentation time when B-frames reorder.
    public var decodeTime: MediaTime
    /// The codec, size and parameter sets the sample needs.
    public var formatDescription: VideoFormatDescription

    /// A sample with its timing and the description it decodes with.
    public init(data: [UInt8], isKeyframe: Bool, presentationTime: MediaTime, decodeTime: MediaTime, formatDescription: VideoFormatDescription) {
        self.data = data
        self.isKeyframe = isKeyframe
        self.presentationTime = presentationTime
        self.decodeTime = decodeTime
        self.formatDescription = formatDescription
    }

    /// The NAL units, length prefixes removed.
    public func nalUnits() throws -> [ArraySlice<UInt8>] { try AnnexB.units(inLengthPrefixed: data) }
}
