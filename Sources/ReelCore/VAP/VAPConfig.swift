/// The configuration a VAP animation carries in its top-level `vapc` box (UTF-8 JSON):
/// where the colour and alpha regions lie in the video, the size to show, and for fusion
/// animations the sources to fuse in and where each frame places them.
///
/// Rectangles are `[x, y, width, height]` arrays in pixels. Decode with
/// ``VAPConfig/decode(json:)``, which also validates.
public struct VAPConfig: Sendable, Equatable, Codable {
    /// The format version, sizes, rate and the colour and alpha regions.
    public var info: Info
    /// The fusion sources (texts and images), empty when the animation has none.
    public var sources: [Source]
    /// The frames with fusion objects, each listing its objects.
    public var frames: [Frame]

    /// A configuration, as `reel vap pack` writes one.
    public init(info: Info, sources: [Source] = [], frames: [Frame] = []) {
        self.info = info
        self.sources = sources
        self.frames = frames
    }

    enum CodingKeys: String, CodingKey {
        case info
        case sources = "src"
        case frames = "frame"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        info = try container.decode(Info.self, forKey: .info)
        sources = try container.decodeIfPresent([Source].self, forKey: .sources) ?? []
        frames = try container.decodeIfPresent([Frame].self, forKey: .frames) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(info, forKey: .info)
        if !sources.isEmpty { try container.encode(sources, forKey: .sources) }
        if !frames.isEmpty { try container.encode(frames, forKey: .frames) }
    }

    /// The `info` object: format version, frame count, output and video sizes, rate and
    /// the two regions.
    public struct Info: Sendable, Equatable, Codable {
        /// Format version (`v`).
        public var version: Int
        /// Number of frames (`f`).
        public var frameCount: Int
        /// The size the animation is shown at (`w`, `h`): the colour region's size.
        public var width: Int
        /// The height the animation is shown at (`h`).
        public var height: Int
        /// The encoded video's size (`videoW`, `videoH`).
        public var videoWidth: Int
        /// The encoded video's height (`videoH`).
        public var videoHeight: Int
        /// Frames per second; `nil` when the file leaves it out.
        public var framesPerSecond: Int?
        /// Whether the animation has fusion sources (`isVapx`).
        public var isVAPX: Bool
        /// Orientation the animation was made for (`orien`: 0 any, 1 portrait, 2 landscape).
        public var orientation: Int
        /// Where the alpha region lies in the video (`aFrame`).
        public var alphaFrame: PixelRect
        /// Where the colour region lies in the video (`rgbFrame`).
        public var rgbFrame: PixelRect

        /// An `info` object; the version is 2 unless told otherwise.
        public init(version: Int = 2, frameCount: Int, width: Int, height: Int, videoWidth: Int, videoHeight: Int,
                    framesPerSecond: Int?, isVAPX: Bool = false, orientation: Int = 0, alphaFrame: PixelRect, rgbFrame: PixelRect) {
            self.version = version
            self.frameCount = frameCount
            self.width = width
            self.height = height
            self.videoWidth = videoWidth
            self.videoHeight = videoHeight
            self.framesPerSecond = framesPerSecond
            self.isVAPX = isVAPX
            self.orientation = orientation
            self.alphaFrame = alphaFrame
            self.rgbFrame = rgbFrame
        }

        enum CodingKeys: String, CodingKey {
            case version = "v", frameCount = "f", width = "w", height = "h", videoWidth = "videoW", videoHeight = "videoH"
            case framesPerSecond = "fps", isVAPX = "isVapx", orientation = "orien", alphaFrame = "aFrame", rgbFrame = "rgbFrame"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
            frameCount = try container.decode(Int.self, forKey: .frameCount)
            width = try container.decode(Int.self, forKey: .width)
            height = try container.decode(Int.self, forKey: .height)
            videoWidth = try container.decode(Int.self, forKey: .videoWidth)
            videoHeight = try container.decode(Int.self, forKey: .videoHeight)
            framesPerSecond = try container.decodeIfPresent(Int.self, forKey: .framesPerSecond)
            isVAPX = try container.decodeIfPresent(Int.self, forKey: .isVAPX).map { $0 != 0 } ?? false
            orientation = try container.decodeIfPresent(Int.self, forKey: .orientation) ?? 0
            alphaFrame = try container.decode(VAPRect.self, forKey: .alphaFrame).rect
            rgbFrame = try container.decode(VAPRect.self, forKey: .rgbFrame).rect
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(version, forKey: .version)
            try container.encode(frameCount, forKey: .frameCount)
            try container.encode(width, forKey: .width)
            try container.encode(height, forKey: .height)
            try container.encode(videoWidth, forKey: .videoWidth)
            try container.encode(videoHeight, forKey: .videoHeight)
            try container.encodeIfPresent(framesPerSecond, forKey: .framesPerSecond)
            try container.encode(isVAPX ? 1 : 0, forKey: .isVAPX)
            try container.encode(orientation, forKey: .orientation)
            try container.encode(VAPRect(alphaFrame), forKey: .alphaFrame)
            try container.encode(VAPRect(rgbFrame), forKey: .rgbFrame)
        }
    }

    /// A fusion source (`src` entry): a text or an image the application supplies, found
    /// by its tag.
    public struct Source: Sendable, Equatable, Codable {
        /// Whether a source is an image or a text (`srcType`: `img`, `txt`).
        public enum Kind: String, Sendable, Codable {
            /// A picture the application supplies (`img`).
            case image = "img"
            /// A text the application supplies, drawn by Reel (`txt`).
            case text = "txt"
        }
        /// How a source fills its object's frame (`fitType`).
        public enum Fit: String, Sendable, Codable {
            /// Stretched to the object's frame.
            case fitXY
            /// Scaled to cover the frame, centred, the overflow cut off.
            case centerFull
        }

        /// The source's identifier (`srcId`), which objects refer to.
        public var id: String
        /// An image or a text.
        public var kind: Kind
        /// Where the application fetches it from (`local`, `net`); informative.
        public var loadType: String?
        /// The tag the application knows it by, such as `[sTxt1]`.
        public var tag: String
        /// Text colour, `#RRGGBB` or `#AARRGGBB`.
        public var color: String?
        /// Text style: `b` for bold.
        public var style: String?
        /// The width the application should supply the source at (`w`).
        public var width: Int
        /// The height the application should supply the source at (`h`).
        public var height: Int
        /// How the source fills the object's frame.
        public var fit: Fit

        /// A source; an image by default is stretched to its frame.
        public init(id: String, kind: Kind, loadType: String? = nil, tag: String, color: String? = nil, style: String? = nil,
                    width: Int, height: Int, fit: Fit = .fitXY) {
            self.id = id
            self.kind = kind
            self.loadType = loadType
            self.tag = tag
            self.color = color
            self.style = style
            self.width = width
            self.height = height
            self.fit = fit
        }

        /// Whether the text is to be drawn bold.
        public var isBold: Bool { style == "b" }

        enum CodingKeys: String, CodingKey {
            case id = "srcId", kind = "srcType", loadType, tag = "srcTag", color, style, width = "w", height = "h", fit = "fitType"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            kind = try container.decode(Kind.self, forKey: .kind)
            loadType = try container.decodeIfPresent(String.self, forKey: .loadType)
            tag = try container.decode(String.self, forKey: .tag)
            color = try container.decodeIfPresent(String.self, forKey: .color)
            style = try container.decodeIfPresent(String.self, forKey: .style)
            width = try container.decode(Int.self, forKey: .width)
            height = try container.decode(Int.self, forKey: .height)
            fit = try container.decodeIfPresent(Fit.self, forKey: .fit) ?? .fitXY
        }
    }

    /// The fusion objects shown in one frame (`frame` entry).
    public struct Frame: Sendable, Equatable, Codable {
        /// Frame index (`i`), from 0.
        public var index: Int
        /// The objects shown in the frame (`obj`), in the order the file lists them.
        public var objects: [Object]

        /// The objects of frame `index`.
        public init(index: Int, objects: [Object]) {
            self.index = index
            self.objects = objects
        }

        enum CodingKeys: String, CodingKey { case index = "i", objects = "obj" }
    }

    /// One fusion object in a frame: which source, its stacking order, where it is shown
    /// (`frame`, in output pixels) and where its mask lies in the video (`mFrame`).
    public struct Object: Sendable, Equatable, Codable {
        /// The source shown (`srcId`).
        public var sourceID: String
        /// Stacking order (`z`): higher is drawn over lower.
        public var z: Int
        /// Where the source is shown, in output pixels (`frame`).
        public var frame: PixelRect
        /// Where the mask lies in the video (`mFrame`), in video pixels.
        public var maskFrame: PixelRect
        /// Mask rotation in degrees (`mt`): 0, or 90 when the mask is stored turned.
        public var maskRotation: Int

        /// An object; the mask is stored unturned unless told otherwise.
        public init(sourceID: String, z: Int, frame: PixelRect, maskFrame: PixelRect, maskRotation: Int = 0) {
            self.sourceID = sourceID
            self.z = z
            self.frame = frame
            self.maskFrame = maskFrame
            self.maskRotation = maskRotation
        }

        enum CodingKeys: String, CodingKey { case sourceID = "srcId", z, frame, maskFrame = "mFrame", maskRotation = "mt" }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            sourceID = try container.decode(String.self, forKey: .sourceID)
            z = try container.decodeIfPresent(Int.self, forKey: .z) ?? 0
            frame = try container.decode(VAPRect.self, forKey: .frame).rect
            maskFrame = try container.decode(VAPRect.self, forKey: .maskFrame).rect
            maskRotation = try container.decodeIfPresent(Int.self, forKey: .maskRotation) ?? 0
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(sourceID, forKey: .sourceID)
            try container.encode(z, forKey: .z)
            try container.encode(VAPRect(frame), forKey: .frame)
            try container.encode(VAPRect(maskFrame), forKey: .maskFrame)
            try container.encode(maskRotation, forKey: .maskRotation)
        }
    }
}

/// A rectangle as VAP writes it: `[x, y, width, height]`.
struct VAPRect: Codable {
    var rect: PixelRect

    init(_ rect: PixelRect) { self.rect = rect }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        guard container.count == 4 else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a rectangle is [x, y, width, height]")
        }
        rect = PixelRect(x: try container.decode(Int.self), y: try container.decode(Int.self),
                         width: try container.decode(Int.self), height: try container.decode(Int.self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(contentsOf: [rect.x, rect.y, rect.width, rect.height])
    }
}
