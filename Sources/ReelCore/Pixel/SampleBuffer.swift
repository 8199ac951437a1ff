/// Flags that travel with a picture, after CMSampleBuffer's attachments.
public struct SampleAttachments: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Show it as soon as it arrives (a presented frame, not one to schedule).
    public static let displayImmediately = SampleAttachments(rawValue: 1 << 0)
    /// A picture decoders can start from.
    public static let keyframe = SampleAttachments(rawValue: 1 << 1)
    /// The timeline jumped before this picture (a seek, a new input, lost frames).
    public static let discontinuity = SampleAttachments(rawValue: 1 << 2)
}

/// A picture with its timing and attachments, the analog of a CMSampleBuffer that holds
/// a CVPixelBuffer.
public struct SampleBuffer: Sendable {
    /// The picture.
    public var pixelBuffer: PixelBuffer
    /// When the picture is shown, on the media's timeline.
    public var presentationTime: MediaTime
    /// How long the picture is shown; `nil` when unknown.
    public var duration: MediaTime?
    /// Keyframe, discontinuity and display flags.
    public var attachments: SampleAttachments
    /// Its place among the pictures its source presented (0, 1, 2…), gaps included.
    public var index: Int
    /// Pictures a frame tap subscriber lost just before this one (it was too slow).
    public var droppedBefore: Int
    /// How the picture is turned to be shown upright, as its frame said
    /// (``VideoFrame/orientation``); a consumer that shows it applies it
    /// (``PixelBuffer/reoriented(_:pool:)``).
    public var orientation: PictureOrientation = .upright

    /// A sample with its timing and flags.
    public init(pixelBuffer: PixelBuffer, presentationTime: MediaTime, duration: MediaTime? = nil,
                attachments: SampleAttachments = [], index: Int = 0, droppedBefore: Int = 0) {
        self.pixelBuffer = pixelBuffer
        self.presentationTime = presentationTime
        self.duration = duration
        self.attachments = attachments
        self.index = index
        self.droppedBefore = droppedBefore
    }
}
