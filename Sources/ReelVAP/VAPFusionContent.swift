import ReelCore

/// What an application fuses into a VAP animation: texts and images by source tag
/// (`[sTxt1]`, `[sImg1]`), or a closure asked for each tag it has nothing for.
public struct VAPFusionContent: Sendable {
    /// Texts by source tag (`[sTxt1]`: `Anna`).
    public var texts: [String: String]
    /// Image files by tag.
    public var imageFiles: [String: String]
    /// Pictures (premultiplied RGBA) for tags neither map has; `nil` leaves the source out.
    public var imageProvider: (@Sendable (String) -> PixelBuffer?)?
    /// Text size in pixels instead of the largest that fits.
    public var fontSize: Int?

    /// Content; texts and image files by tag, the text size fitted unless given.
    public init(texts: [String: String] = [:], imageFiles: [String: String] = [:], fontSize: Int? = nil,
                imageProvider: (@Sendable (String) -> PixelBuffer?)? = nil) {
        self.texts = texts
        self.imageFiles = imageFiles
        self.fontSize = fontSize
        self.imageProvider = imageProvider
    }
}
