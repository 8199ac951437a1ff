/// One stream of an input as the container and the codec parameters describe it.
///
/// Fields that do not apply to a stream's type, or that the input does not state,
/// are `nil` and left out of the JSON.
public struct StreamDescription: Sendable, Codable, Equatable {
    public var index: Int
    public var type: MediaType
    /// FFmpeg's short codec name (`h264`, `aac`…); `none` when the codec is unknown.
    public var codecName: String
    public var codecLongName: String?
    /// The codec's profile by name (`High`, `Main 10`, `LC`).
    public var profile: String?
    /// The codec's level as the bitstream codes it (H.264 level 4.1 is 41, H.265's is 123).
    public var level: Int?
    public var timeBase: Rational
    /// Seconds.
    public var startTime: Double?
    public var duration: Double?
    public var bitRate: Int64?
    public var frameCount: Int64?

    // Video
    public var width: Int?
    public var height: Int?
    public var sampleAspectRatio: AspectRatio?
    public var displayAspectRatio: AspectRatio?
    public var pixelFormat: PixelFormat?
    public var bitsPerRawSample: Int?
    public var colorMatrix: ColorMatrix?
    public var colorRange: ColorRange?
    public var colorPrimaries: ColorPrimaries?
    public var colorTransfer: ColorTransfer?
    public var fieldOrder: String?
    /// The lowest rate that represents every timestamp (ffprobe's `r_frame_rate`).
    public var realFrameRate: Rational?
    /// Frames divided by duration (ffprobe's `avg_frame_rate`).
    public var averageFrameRate: Rational?
    /// Degrees counter-clockwise that the display matrix rotates the picture by.
    public var rotation: Double?
    public var spherical: SphericalMapping?
    public var stereo3D: StereoMode?

    // Audio
    public var sampleFormat: SampleFormat?
    public var sampleRate: Int?
    public var channels: Int?
    public var channelLayout: String?

    // Every stream
    public var language: String?
    /// FFmpeg's disposition flags by name (`default`, `forced`, `attached_pic`…).
    public var disposition: [String: Bool]
    public var tags: [String: String]

    public init(index: Int, type: MediaType, codecName: String, timeBase: Rational) {
        self.index = index
        self.type = type
        self.codecName = codecName
        self.timeBase = timeBase
        self.disposition = [:]
        self.tags = [:]
    }

    /// The colour description with unknowns for fields the stream does not state.
    public var color: ColorDescription {
        ColorDescription(matrix: colorMatrix ?? .unspecified, range: colorRange ?? .unspecified,
                         primaries: colorPrimaries ?? .unspecified, transfer: colorTransfer ?? .unspecified)
    }

    enum CodingKeys: String, CodingKey {
        case index, type = "codec_type", codecName = "codec_name", codecLongName = "codec_long_name"
        case profile, level, timeBase = "time_base", startTime = "start_time", duration
        case bitRate = "bit_rate", frameCount = "nb_frames"
        case width, height, sampleAspectRatio = "sample_aspect_ratio", displayAspectRatio = "display_aspect_ratio"
        case pixelFormat = "pix_fmt", bitsPerRawSample = "bits_per_raw_sample"
        case colorMatrix = "color_space", colorRange = "color_range"
        case colorPrimaries = "color_primaries", colorTransfer = "color_transfer", fieldOrder = "field_order"
        case realFrameRate = "r_frame_rate", averageFrameRate = "avg_frame_rate"
        case rotation, spherical, stereo3D = "stereo3d"
        case sampleFormat = "sample_fmt", sampleRate = "sample_rate", channels, channelLayout = "channel_layout"
        case language, disposition, tags
    }
}

/// Spherical video side data (Google's Spherical Video V2 as FFmpeg exports it).
public struct SphericalMapping: Sendable, Codable, Equatable {
    /// `equirectangular`, `cubemap`, `tiled equirectangular`…
    public var projection: String
    /// The initial view, degrees.
    public var yaw: Double
    public var pitch: Double
    public var roll: Double
    /// Pixels cropped from each edge of a tiled equirectangular picture.
    public var bounds: [Int]?
    /// Pixels of padding around each cube face.
    public var padding: Int?

    public init(projection: String, yaw: Double, pitch: Double, roll: Double, bounds: [Int]? = nil, padding: Int? = nil) {
        self.projection = projection
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
        self.bounds = bounds
        self.padding = padding
    }
}

/// Stereoscopic packing of the two eyes in one picture.
public struct StereoMode: Sendable, Codable, Equatable {
    /// FFmpeg's name: `2D`, `top and bottom`, `side by side`…
    public var type: String
    /// The right eye comes first.
    public var inverted: Bool

    public init(type: String, inverted: Bool) {
        self.type = type
        self.inverted = inverted
    }
}
