/// One stream of an input as the container and the codec parameters describe it.
///
/// Fields that do not apply to a stream's type, or that the input does not state,
/// are `nil` and left out of the JSON.
public struct StreamDescription: Sendable, Codable, Equatable {
    /// The stream's index in the input, as FFmpeg numbers streams (`-map 0:N`).
    public var index: Int
    /// Video, audio, subtitle, data or attachment.
    public var type: MediaType
    /// FFmpeg's short codec name (`h264`, `aac`…); `none` when the codec is unknown.
    public var codecName: String
    /// FFmpeg's descriptive codec name (`H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10`).
    public var codecLongName: String?
    /// The codec's profile by name (`High`, `Main 10`, `LC`).
    public var profile: String?
    /// The codec's level as the bitstream codes it (H.264 level 4.1 is 41, H.265's is 123).
    public var level: Int?
    /// The unit of the stream's timestamps, in seconds.
    public var timeBase: Rational
    /// Seconds.
    public var startTime: Double?
    /// Seconds, as the container states it for this stream.
    public var duration: Double?
    /// Bits per second, as the container or the codec states it.
    public var bitRate: Int64?
    /// Frames (or packets) the container counts; `nil` when it does not say.
    public var frameCount: Int64?

    // Video
    /// Coded width in pixels.
    public var width: Int?
    /// Coded height in pixels.
    public var height: Int?
    /// The shape of one pixel (`1:1` square); `nil` when unknown.
    public var sampleAspectRatio: AspectRatio?
    /// The picture's shape on screen: width × sample aspect ratio over height.
    public var displayAspectRatio: AspectRatio?
    /// The decoder's pixel layout (`yuv420p`, `yuv420p10le`…).
    public var pixelFormat: PixelFormat?
    /// Bits per sample the codec stores (10 for 10-bit video), when it says.
    public var bitsPerRawSample: Int?
    /// The YUV ⇄ RGB matrix the stream states.
    public var colorMatrix: ColorMatrix?
    /// The sample range the stream states.
    public var colorRange: ColorRange?
    /// The colour primaries the stream states.
    public var colorPrimaries: ColorPrimaries?
    /// The transfer characteristic the stream states (`smpte2084` for HDR10).
    public var colorTransfer: ColorTransfer?
    /// `progressive`, `tt`, `bb`, `tb` or `bt`, as ffprobe names interlacing.
    public var fieldOrder: String?
    /// The lowest rate that represents every timestamp (ffprobe's `r_frame_rate`).
    public var realFrameRate: Rational?
    /// Frames divided by duration (ffprobe's `avg_frame_rate`).
    public var averageFrameRate: Rational?
    /// Degrees counter-clockwise that the display matrix rotates the picture by.
    public var rotation: Double?
    /// The display matrix itself (nine fixed-point numbers, as in an MP4 `tkhd`), which
    /// also says whether the picture is mirrored; not in the JSON (ffprobe prints it as text).
    public var displayMatrix: [Int32]? = nil
    /// How the picture is turned to be shown upright, from ``displayMatrix``.
    public var orientation: PictureOrientation { displayMatrix.flatMap(PictureOrientation.init(displayMatrix:)) ?? .upright }
    /// Spherical (360°) projection side data, for VR video.
    public var spherical: SphericalMapping?
    /// How the two eyes of stereoscopic video are packed.
    public var stereo3D: StereoMode?

    // Audio
    /// The decoder's sample layout (`fltp`, `s16`…).
    public var sampleFormat: SampleFormat?
    /// Samples per second per channel.
    public var sampleRate: Int?
    /// Channels.
    public var channels: Int?
    /// FFmpeg's name of the layout (`stereo`, `5.1(side)`).
    public var channelLayout: String?

    // Every stream
    /// The ISO 639-2 language the container tags (`eng`), when it does.
    public var language: String?
    /// FFmpeg's disposition flags by name (`default`, `forced`, `attached_pic`…).
    public var disposition: [String: Bool]
    /// The stream's metadata as the container holds it.
    public var tags: [String: String]

    /// A stream with what every stream has; the rest is filled in by the prober.
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
    /// Degrees up from the horizon of the initial view.
    public var pitch: Double
    /// Degrees the initial view is rolled by.
    public var roll: Double
    /// Pixels cropped from each edge of a tiled equirectangular picture.
    public var bounds: [Int]?
    /// Pixels of padding around each cube face.
    public var padding: Int?

    /// A mapping; `bounds` and `padding` apply to tiled equirectangular and cubemaps.
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

    /// A packing by FFmpeg's name, with the eyes swapped when `inverted`.
    public init(type: String, inverted: Bool) {
        self.type = type
        self.inverted = inverted
    }
}
